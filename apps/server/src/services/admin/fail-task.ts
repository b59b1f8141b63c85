import { and, eq, isNotNull, isNull, ne, or, lt } from 'drizzle-orm';
import { agents, webhookDeliveries } from '@tandem/db';
import { WEBHOOK_TASK_PREFIX, WORKING_STATUSES, type AdminTask } from '@tandem/shared';
import { stopAgentById } from '../supervisors/stop-agent.js';
import { findTask } from './find-task.js';
import type { TaskActionDeps } from './restart-task.js';
import { taskConflict, taskNotFound, writeTaskEvent } from './task-event.js';

export const ADMIN_FAILED_ERROR = 'Marked failed by an admin.';

/**
 * POST /api/admin/tasks/{task_id}/fail: ends the agent as failed (a working one is stopped first);
 * it stays failed until someone messages it or an admin restarts it. A webhook delivery stops
 * being retried.
 */
export async function failTask(deps: TaskActionDeps, taskId: string): Promise<AdminTask> {
  const task = await findTask(deps.db, taskId);
  if (!task) throw taskNotFound();
  if (task.kind === 'webhook') {
    const now = new Date();
    const [row] = await deps.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: null, error: ADMIN_FAILED_ERROR })
      .where(
        and(
          eq(webhookDeliveries.deliveryId, taskId.slice(WEBHOOK_TASK_PREFIX.length)),
          isNotNull(webhookDeliveries.nextAttemptAt),
          isNull(webhookDeliveries.processedAt),
          // One being applied right now finishes (or fails) on its own.
          or(isNull(webhookDeliveries.lockedUntil), lt(webhookDeliveries.lockedUntil, now)),
        ),
      )
      .returning({ id: webhookDeliveries.deliveryId });
    if (!row)
      throw taskConflict(
        task.status === 'failed'
          ? 'This delivery has already failed.'
          : 'This delivery is being applied now.',
      );
    return (await findTask(deps.db, taskId))!;
  }
  if (task.status === 'failed') throw taskConflict('This agent has already failed.');
  // The item first, so the stopped run knows an admin stopped it (and does not say "the user").
  await writeTaskEvent(deps.db, task.id, 'fail');
  if ((WORKING_STATUSES as readonly string[]).includes(task.status))
    await stopAgentById(deps.db, deps.runner, task.id);
  // After the interrupt: the queue runner keeps the stop request only while the agent is pending
  // or open. The run, when it ends, leaves 'failed' as it is.
  await deps.db
    .update(agents)
    .set({ status: 'failed', wakeAt: null })
    .where(and(eq(agents.id, task.id), ne(agents.status, 'failed')));
  return (await findTask(deps.db, taskId))!;
}
