import { eq } from 'drizzle-orm';
import { agentReads, agents, type Db } from '@tandem/db';
import type { AuthenticatedUser } from '../sessions.js';

export async function markAllRead(db: Db, viewer: AuthenticatedUser): Promise<void> {
  const now = new Date();
  const own = await db.select({ id: agents.id }).from(agents).where(eq(agents.creatorId, viewer.id));
  if (!own.length) return;
  await db
    .insert(agentReads)
    .values(own.map((a) => ({ agentId: a.id, userId: viewer.id, readAt: now })))
    .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: { readAt: now } });
}

export async function markRead(db: Db, viewer: AuthenticatedUser, agentId: string): Promise<void> {
  const now = new Date();
  await db
    .insert(agentReads)
    .values({ agentId, userId: viewer.id, readAt: now })
    .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: { readAt: now } });
}
