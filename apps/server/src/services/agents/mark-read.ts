import { eq, sql } from 'drizzle-orm';
import { agentReads, agents, type Db } from '@tandem/db';
import type { AuthenticatedUser } from '../sessions.js';

/**
 * A read mark is the later of now and the agent's latest_timestamp: that value may run a few
 * milliseconds ahead of the clock after a burst of items (advancedLatest), and an agent read then
 * must not count as unread.
 */
const readAt = (agentId: string, now: string) =>
  sql`greatest(${now}::timestamptz, (select ${agents.latestTimestamp} from ${agents} where ${agents.id} = ${agentId}))`;
const keptReadAt = { readAt: sql`excluded.read_at` };

export async function markAllRead(db: Db, viewer: AuthenticatedUser): Promise<void> {
  const now = new Date().toISOString();
  const own = await db.select({ id: agents.id }).from(agents).where(eq(agents.creatorId, viewer.id));
  if (!own.length) return;
  await db
    .insert(agentReads)
    .values(own.map((a) => ({ agentId: a.id, userId: viewer.id, readAt: readAt(a.id, now) })))
    .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: keptReadAt });
}

export async function markRead(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<void> {
  await markReadAt(db, agentId, viewer.id, new Date());
}

/** Marks the agent read for `userId` at `now` (or its later latest_timestamp); `db` may be a transaction. */
export async function markReadAt(db: Db, agentId: string, userId: string, now: Date): Promise<void> {
  await db
    .insert(agentReads)
    .values({ agentId, userId, readAt: readAt(agentId, now.toISOString()) })
    .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: keptReadAt });
}
