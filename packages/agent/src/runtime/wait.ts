import { agents, type Db } from '@tandem/db';
import { and, eq, isNotNull } from 'drizzle-orm';
import { actionItem, appendItem } from './items.js';

/**
 * Waiting without a runner slot: the wait tool ends the run with `wake_at` stored and status
 * 'waiting'; the runner's timer (or a message, or a comment on a subscription) asks for a run,
 * and that run wakes the agent. These helpers are the database side, shared by both runners.
 */

/** How a wake is shown in the feed (WakeEvent.wake_status). */
export type WakeReason = 'woke' | 'message';

/** Stores the wake time; the run that called wait then ends with status 'waiting'. */
export async function beginWait(db: Db, agentId: string, seconds: number): Promise<Date> {
  const wakeAt = new Date(Date.now() + seconds * 1000);
  await db.update(agents).set({ wakeAt }).where(eq(agents.id, agentId));
  return wakeAt;
}

/** Ends a wait (woken): the feed says why. */
export async function endWait(db: Db, agentId: string, reason: WakeReason): Promise<void> {
  await db.update(agents).set({ wakeAt: null }).where(eq(agents.id, agentId));
  await appendItem(db, agentId, actionItem('WakeEvent', { wake_status: reason }));
}

/**
 * The user stopped a waiting agent: no run is going, so nothing else would end the wait. True when
 * the agent was waiting (it is now paused and the feed shows the interrupt).
 */
export async function cancelWait(db: Db, agentId: string): Promise<boolean> {
  const [was] = await db
    .update(agents)
    .set({ wakeAt: null, status: 'paused', interruptRequested: false })
    .where(and(eq(agents.id, agentId), isNotNull(agents.wakeAt)))
    .returning({ id: agents.id });
  if (was) await appendItem(db, agentId, actionItem('InterruptEvent'));
  return was !== undefined;
}

/** Agents waiting now, with their wake times (a runner re-arms its timers at start). */
export async function waitingAgents(db: Db): Promise<{ id: string; wakeAt: Date }[]> {
  const rows = await db
    .select({ id: agents.id, wakeAt: agents.wakeAt })
    .from(agents)
    .where(and(isNotNull(agents.wakeAt), eq(agents.archived, false)));
  return rows.map((r) => ({ id: r.id, wakeAt: r.wakeAt! }));
}
