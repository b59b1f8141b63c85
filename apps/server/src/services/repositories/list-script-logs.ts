import { count, desc, eq } from 'drizzle-orm';
import { scriptLogs, type Db } from '@tandem/db';
import type { ScriptLogList, ScriptLogListQuery } from '@tandem/shared';

/**
 * One page of a repository's script logs, newest first. Paged in SQL: the index on
 * (repository_id, started_at) serves both the filter and the order.
 */
export async function listScriptLogs(
  db: Db,
  repository: { id: string; fullName: string },
  query: ScriptLogListQuery,
): Promise<ScriptLogList> {
  const where = eq(scriptLogs.repositoryId, repository.id);
  const rows = await db
    .select({
      id: scriptLogs.id,
      path: scriptLogs.path,
      startedAt: scriptLogs.startedAt,
      statusCode: scriptLogs.statusCode,
      agentId: scriptLogs.agentId,
    })
    .from(scriptLogs)
    .where(where)
    .orderBy(desc(scriptLogs.startedAt), desc(scriptLogs.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const [total] = await db.select({ n: count() }).from(scriptLogs).where(where);
  return {
    logs: rows.map((row) => ({
      id: row.id,
      path: row.path,
      started_at: row.startedAt.toISOString(),
      status_code: row.statusCode,
      trajectory_id: row.agentId,
      repo_name: repository.fullName,
    })),
    total: total?.n ?? 0,
  };
}
