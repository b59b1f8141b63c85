import { agents, conversationItems, type Db } from '@tandem/db';
import { ADMIN_TASK_EVENT } from '@tandem/shared';
import { and, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';

/** Set only by an admin's Fail (the task monitor); a run never overwrites it. */
export const FAILED_STATUS = 'failed';

/** The statuses isAsleep names, for statements that must decide the same (agent-row.ts). */
export const ASLEEP_STATUSES = ['paused', FAILED_STATUS] as const;

/**
 * A paused or failed agent is asleep: a run asked for it (Run Scripts, a restart of the runtime, a
 * stale wake) leaves the model alone unless a message arrived. A failed agent wakes as a paused one.
 */
export function isAsleep(status: string): boolean {
  return (ASLEEP_STATUSES as readonly string[]).includes(status);
}

/** Now, in the feed's timestamp form (ISO 8601 with six fractional digits, which sorts as text). */
export function isoNow(): string {
  return new Date().toISOString().replace('Z', '000Z');
}

/**
 * An agent that is asleep has no run to stop: an interrupt asked for while it was queued (an
 * admin's Fail of a queued run) would otherwise stop the next run a message starts.
 */
export async function clearStaleInterrupt(db: Db, agentId: string): Promise<void> {
  await db.update(agents).set({ interruptRequested: false }).where(eq(agents.id, agentId));
}

/**
 * A Stop that finds the agent idle (neither queued nor running) has nothing left to stop, and left
 * set it would end the agent's next run at once; a queued or running run still sees it. Both
 * runners call this after asking their own run to stop (docs/decisions.md "A Stop that meets the
 * end of a run").
 */
export async function clearInterruptIfIdle(db: Db, agentId: string): Promise<void> {
  await db
    .update(agents)
    .set({ interruptRequested: false })
    .where(and(eq(agents.id, agentId), notInArray(agents.status, ['pending', 'open'])));
}

/** Whether an admin stopped or failed the agent since `since` (the run's start). */
export async function stoppedByAdmin(db: Db, agentId: string, since: string): Promise<boolean> {
  const [row] = await db
    .select({ id: conversationItems.id })
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, agentId),
        eq(conversationItems.actionType, ADMIN_TASK_EVENT),
        gt(conversationItems.timestamp, since),
        inArray(sql`${conversationItems.data} ->> 'admin_action'`, ['stop', 'fail']),
      ),
    )
    .limit(1);
  return row !== undefined;
}
