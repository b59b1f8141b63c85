import { and, asc, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { installations, type Db } from '@tandem/db';
import type { AdminInstallationList, adminInstallationsQuerySchema } from '@tandem/shared';
import type { z } from 'zod';
import { containsPattern } from '../like-pattern.js';

/** The admin installations table: every installation not deleted on the code host, paged. */
export async function listInstallations(
  db: Db,
  query: z.output<typeof adminInstallationsQuerySchema>,
): Promise<AdminInstallationList> {
  // Written out: drizzle leaves columns unqualified inside a select list, which a correlated
  // subquery would bind to its own table.
  const agentCount = sql<number>`(select count(*)::int from agents a where a.installation_id = installations.id)`;
  const activeCount = sql<number>`(select count(*)::int from agents a
    where a.installation_id = installations.id and a.status::text in ('pending', 'open', 'waiting'))`;
  const memberCount = sql<number>`(select count(*)::int from memberships m where m.installation_id = installations.id)`;
  const filters: SQL[] = [isNull(installations.deletedAt)];
  if (query.search) {
    const byId = /^\d{1,15}$/.test(query.search) ? eq(installations.id, Number(query.search)) : undefined;
    filters.push(or(ilike(installations.accountLogin, containsPattern(query.search)), byId)!);
  }
  const where = and(...filters);
  const column = {
    created_at: installations.createdAt,
    name: sql`lower(${installations.accountLogin})`,
    credits: installations.creditBalance,
    agents: agentCount,
  }[query.sort_by];
  const order = query.descending ? desc(column) : asc(column);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: installations.id,
        name: installations.accountLogin,
        avatarUrl: installations.avatarUrl,
        accountType: installations.accountType,
        createdAt: installations.createdAt,
        bannedAt: installations.bannedAt,
        credits: installations.creditBalance,
        members: memberCount,
        agents: agentCount,
        active: activeCount,
      })
      .from(installations)
      .where(where)
      // The id breaks ties, so pages never repeat or skip a row.
      .orderBy(order, asc(installations.id))
      .limit(query.rows_per_page)
      .offset((query.page - 1) * query.rows_per_page),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(installations)
      .where(where),
  ]);
  return {
    installations: rows.map((r) => ({
      id: r.id,
      name: r.name,
      avatar_url: r.avatarUrl,
      account_type: r.accountType,
      created_at: r.createdAt.toISOString(),
      banned_at: r.bannedAt?.toISOString() ?? null,
      credits: Number(r.credits),
      members: Number(r.members),
      agents: Number(r.agents),
      active_agents: Number(r.active),
    })),
    count: Number(total?.count ?? 0),
  };
}
