import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AgentRunner } from '@tandem/agent';
import { agents, webhookDeliveries, type Db } from '@tandem/db';
import { WEBHOOK_TASK_PREFIX, type AdminTask } from '@tandem/shared';
import { findTask } from './find-task.js';
import { taskConflict, taskNotFound, writeTaskEvent } from './task-event.js';

export interface TaskActionDeps {
  db: Db;
  runner: Pick<AgentRunner, 'enqueue' | 'interrupt'>;
  /** Applies a re-queued webhook delivery now rather than at the queue's next poll. */
  webhooks?: { kick(): void };
}

/**
 * POST /api/admin/tasks/restart: runs a paused or failed agent again (it picks up where it
 * stopped: a pending tool call, an unanswered message), or tries a given-up webhook delivery again.
 * The status changes only from a stopped state, in one statement, so a working agent is never
 * queued twice.
 */
export async function restartTask(deps: TaskActionDeps, taskId: string): Promise<AdminTask> {
  const task = await findTask(deps.db, taskId);
  if (!task) throw taskNotFound();
  if (task.kind === 'webhook') {
    const [row] = await deps.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(), attempts: 0, lockedUntil: null })
      .where(
        and(
          eq(webhookDeliveries.deliveryId, taskId.slice(WEBHOOK_TASK_PREFIX.length)),
          isNull(webhookDeliveries.nextAttemptAt),
          isNull(webhookDeliveries.processedAt),
        ),
      )
      .returning({ id: webhookDeliveries.deliveryId });
    if (!row) throw taskConflict('This delivery is already queued.');
    deps.webhooks?.kick();
    return (await findTask(deps.db, taskId))!;
  }
  if (task.archived) throw taskConflict('This agent is archived; unarchive it before restarting it.');
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(agents)
      .set({ status: 'pending', interruptRequested: false, lastActive: new Date() })
      .where(and(eq(agents.id, task.id), inArray(agents.status, ['paused', 'failed'])))
      .returning({ id: agents.id });
    if (!row) throw taskConflict('This agent is already working.');
    await writeTaskEvent(tx as unknown as Db, task.id, 'restart');
  });
  deps.runner.enqueue(task.id);
  return (await findTask(deps.db, taskId))!;
}
