import { desc, ilike, or, sql } from 'drizzle-orm';
import { users, type Db } from '@tandem/db';
import type { AdminListQuery, AdminUserList } from '@tandem/shared';
import { containsPattern } from '../like-pattern.js';

/**
 * The admin users table (GET /api/admin/users): newest first, searchable by username or email,
 * with how each user first arrived (their earliest lead's utm_source).
 */
export async function listUsers(db: Db, query: AdminListQuery): Promise<AdminUserList> {
  // Written out: drizzle leaves columns unqualified inside a select list, which a correlated
  // subquery would bind to its own table.
  const installationCount = sql<number>`(select count(*)::int from memberships m where m.user_id = users.id)`;
  const agentCount = sql<number>`(select count(*)::int from agents a where a.creator_id = users.id)`;
  const utmSource = sql<string | null>`(select nullif(l.data ->> 'utm_source', '') from leads l
    where l.user_id = users.id and nullif(l.data ->> 'utm_source', '') is not null
    order by l.created_at, l.id limit 1)`;
  const like = query.search ? containsPattern(query.search) : null;
  const where = like ? or(ilike(users.username, like), ilike(users.email, like)) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: users.id,
        username: users.username,
        email: users.email,
        admin: users.admin,
        createdAt: users.createdAt,
        installations: installationCount,
        agents: agentCount,
        utmSource,
      })
      .from(users)
      .where(where)
      // The id breaks ties, so pages never repeat or skip a row.
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.rows_per_page)
      .offset((query.page - 1) * query.rows_per_page),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return {
    users: rows.map((r) => ({
      user_id: r.id,
      username: r.username,
      email: r.email,
      admin: r.admin,
      created_at: r.createdAt.toISOString(),
      installations: Number(r.installations),
      agents: Number(r.agents),
      utm_source: r.utmSource ?? null,
    })),
    count: Number(total?.count ?? 0),
  };
}
