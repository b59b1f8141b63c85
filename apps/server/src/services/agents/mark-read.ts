import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { agentReads, agents, type Db } from '@tandem/db';
import type { AuthenticatedUser } from '../sessions.js';

/**
 * A read mark is the later of now and the agent's latest_timestamp: that value may run a few
 * milliseconds ahead of the clock after a burst of items (advancedLatest), and an agent read then
 * must not count as unread.
 */
const laterOf = (now: string, latest: SQLWrapper) => sql`greatest(${now}::timestamptz, ${latest})`;
const readAt = (agentId: string, now: string) =>
  laterOf(now, sql`(select ${agents.latestTimestamp} from ${agents} where ${agents.id} = ${agentId})`);
const keptReadAt = { readAt: sql`excluded.read_at` };

/** One statement for all the viewer's agents, each marked at the later of now and its own value. */
export async function markAllRead(db: Db, viewer: AuthenticatedUser): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insert(agentReads)
    .select(
      db
        .select({
          agentId: agents.id,
          userId: agents.creatorId,
          readAt: laterOf(now, agents.latestTimestamp).as('read_at'),
        })
        .from(agents)
        .where(eq(agents.creatorId, viewer.id)),
    )
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
