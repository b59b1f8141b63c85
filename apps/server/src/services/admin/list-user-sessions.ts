import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { leads, sessionEvents, type Db } from '@tandem/db';
import type { AdminUserSessions, AdminUserSessionsQuery } from '@tandem/shared';

/**
 * Tracked session events (GET /api/admin/user-sessions), newest first: a user's (sent while they
 * were signed in, or by a lead linked to them), a lead's, or everyone's.
 */
export async function listUserSessions(db: Db, query: AdminUserSessionsQuery): Promise<AdminUserSessions> {
  const filters: SQL[] = [];
  if (query.user_id) {
    const theirLeads = db.select({ id: leads.id }).from(leads).where(eq(leads.userId, query.user_id));
    filters.push(or(eq(sessionEvents.userId, query.user_id), inArray(sessionEvents.leadId, theirLeads))!);
  }
  if (query.lead_id) filters.push(eq(sessionEvents.leadId, query.lead_id));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(sessionEvents)
      .where(where)
      .orderBy(desc(sessionEvents.timestamp), desc(sessionEvents.id))
      .limit(query.rows_per_page)
      .offset((query.page - 1) * query.rows_per_page),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(sessionEvents)
      .where(where),
  ]);
  return {
    events: rows.map((r) => ({
      id: r.id,
      lead_id: r.leadId,
      user_id: r.userId,
      type: r.type,
      timestamp: r.timestamp.toISOString(),
      data: r.data,
    })),
    count: Number(total?.count ?? 0),
  };
}
