import { eq } from 'drizzle-orm';
import { scriptLogs, type Db } from '@tandem/db';
import { LOG_MESSAGES, type ScriptLog } from '@tandem/shared';
import { notFound } from '../../errors/app-error.js';
import type { AuthenticatedUser } from '../sessions.js';
import type { RepositoryAccess } from './repository-access.js';

/**
 * One script log with its output, for anyone with access to its repository. A missing log, one
 * without a repository and one the viewer may not see all answer the same 404.
 */
export async function getScriptLog(
  db: Db,
  access: RepositoryAccess,
  viewer: AuthenticatedUser,
  logId: string,
): Promise<ScriptLog> {
  const [log] = await db.select().from(scriptLogs).where(eq(scriptLogs.id, logId)).limit(1);
  if (!log?.repositoryId) throw notFound(LOG_MESSAGES.fetchFailed);
  const repository = await access.requireById(viewer, log.repositoryId, 'read', LOG_MESSAGES.fetchFailed);
  return scriptLogBody(log, repository.fullName);
}

/** A stored script log as the API returns it (duration in seconds). */
export function scriptLogBody(log: typeof scriptLogs.$inferSelect, repoName: string | null): ScriptLog {
  return {
    id: log.id,
    path: log.path,
    status_code: log.statusCode,
    started_at: log.startedAt.toISOString(),
    duration: log.durationMs === null ? null : log.durationMs / 1000,
    trajectory_id: log.agentId,
    repo_name: repoName,
    commit_sha: log.commitSha,
    script_contents: log.scriptContents,
    output: log.output,
  };
}
