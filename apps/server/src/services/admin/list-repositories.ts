import { asc, eq, ilike, or, sql } from 'drizzle-orm';
import { installations, repositories, type Db } from '@tandem/db';
import type { AdminListQuery, AdminRepositoryList } from '@tandem/shared';
import { containsPattern } from '../like-pattern.js';

/**
 * Every repository across installations (GET /api/admin/repositories), by name, searchable by
 * repository or installation name; removed ones included and marked.
 */
export async function listRepositories(db: Db, query: AdminListQuery): Promise<AdminRepositoryList> {
  const agentCount = sql<number>`(select count(*)::int from agents a where a.repository_id = repositories.id)`;
  const like = query.search ? containsPattern(query.search) : null;
  const where = like
    ? or(ilike(repositories.fullName, like), ilike(installations.accountLogin, like))
    : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: repositories.id,
        fullName: repositories.fullName,
        installationId: repositories.installationId,
        installationName: installations.accountLogin,
        private: repositories.private,
        removedAt: repositories.removedAt,
        createdAt: repositories.createdAt,
        agents: agentCount,
      })
      .from(repositories)
      .innerJoin(installations, eq(installations.id, repositories.installationId))
      .where(where)
      .orderBy(asc(sql`lower(${repositories.fullName})`), asc(repositories.id))
      .limit(query.rows_per_page)
      .offset((query.page - 1) * query.rows_per_page),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(repositories)
      .innerJoin(installations, eq(installations.id, repositories.installationId))
      .where(where),
  ]);
  return {
    repositories: rows.map((r) => ({
      id: r.id,
      full_name: r.fullName,
      installation_id: r.installationId,
      installation_name: r.installationName,
      private: r.private,
      removed: r.removedAt !== null,
      agents: Number(r.agents),
      created_at: r.createdAt.toISOString(),
    })),
    count: Number(total?.count ?? 0),
  };
}
