import { scriptLogs, type Db } from '@tandem/db';
import type { Scrubber, ScriptRun } from '../sandbox/index.js';

const MAX_LOG_CHARS = 1024 * 1024;

/**
 * Stores a repository script's run (setup, format) as a log the repository's Logs list and the
 * commit trailer link to. The output is already scrubbed by runRepoScript; the contents are here.
 */
export async function recordScriptLog(
  db: Db,
  owner: { repositoryId: string; agentId: string },
  run: ScriptRun,
  scrub: Scrubber,
): Promise<string> {
  const [log] = await db
    .insert(scriptLogs)
    .values({
      ...owner,
      path: run.path,
      statusCode: run.statusCode,
      startedAt: new Date(run.startedAt),
      durationMs: Math.round(run.durationMs),
      scriptContents: scrub(run.contents),
      output: run.output.slice(0, MAX_LOG_CHARS),
    })
    .returning({ id: scriptLogs.id });
  return log!.id;
}
