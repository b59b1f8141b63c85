import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { leads, sessionEvents, type Db } from '@tandem/db';
import type { SessionEvent } from '@tandem/shared';

/**
 * Records how a visitor arrived: updates the lead when `ownLeadId` (one this browser created) is
 * known, else creates one. Returns the id and whether it is new (the route then sets the cookie).
 */
export async function recordVisit(
  db: Db,
  visit: { ownLeadId: string | null; data: Record<string, string>; userId: string | null },
): Promise<{ leadId: string; created: boolean }> {
  if (visit.ownLeadId) {
    const [known] = await db
      .update(leads)
      .set({ data: visit.data, updatedAt: new Date() })
      .where(eq(leads.id, visit.ownLeadId))
      .returning({ id: leads.id });
    if (known) return { leadId: known.id, created: false };
  }
  const id = randomUUID();
  await db.insert(leads).values({ id, data: visit.data, userId: visit.userId });
  return { leadId: id, created: true };
}

export async function recordSessionEvents(
  db: Db,
  batch: { leadId: string | null; userId: string | null; events: SessionEvent[] },
): Promise<void> {
  if (!batch.events.length) return;
  await db.insert(sessionEvents).values(
    batch.events.map((e) => ({
      leadId: batch.leadId,
      userId: batch.userId,
      type: e.type,
      timestamp: new Date(e.timestamp),
      data: e.data,
    })),
  );
}

/** The anonymous visitor we tracked (lead) is this user from now on. */
export async function linkLeadToUser(db: Db, leadId: string, userId: string): Promise<void> {
  await db.update(leads).set({ userId, updatedAt: new Date() }).where(eq(leads.id, leadId));
}
