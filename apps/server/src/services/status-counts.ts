import { and, desc, eq, sql } from 'drizzle-orm';
import { agentReads, agents, repositories } from '@tandem/db';
import { PolledJson } from '../http/polled-json.js';
import type { PollCache } from './poll-cache/poll-cache.js';
import { preparedPerDatabase } from './poll-queries.js';
import { WORKING_STATUSES, type StatusCounts } from '@tandem/shared';
import type { AuthenticatedUser } from './sessions.js';
import type { Db } from '@tandem/db';

const viewerAgents = preparedPerDatabase(
  (db, name) =>
    db
      .select({
        id: agents.id,
        title: agents.title,
        status: agents.status,
        latest: agents.latestTimestamp,
        readAt: agentReads.readAt,
        repoName: repositories.fullName,
      })
      .from(agents)
      .leftJoin(
        agentReads,
        and(eq(agentReads.agentId, agents.id), eq(agentReads.userId, sql.placeholder('viewer'))),
      )
      .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
      .where(and(eq(agents.creatorId, sql.placeholder('viewer')), eq(agents.archived, false)))
      .orderBy(desc(agents.lastActive))
      .limit(500)
      .prepare(name),
  'tandem_status_counts',
);

/**
 * The header's running and unread lists (polled every 3 s): the viewer's own, unarchived agents,
 * from the poll cache until a change notice names the viewer's agents or read marks. The answer (a
 * `StatusCounts`) is kept as sent: serialized once per read, compressed once per encoding.
 */
export async function statusCountsAnswer(
  db: Db,
  cache: PollCache,
  viewer: AuthenticatedUser,
): Promise<PolledJson> {
  return cache.statusCounts.get(
    viewer.id,
    async () => new PolledJson(JSON.stringify(await readStatusCounts(db, viewer))),
  );
}

async function readStatusCounts(db: Db, viewer: AuthenticatedUser): Promise<StatusCounts> {
  const rows = await viewerAgents(db).execute({ viewer: viewer.id });
  const item = (r: (typeof rows)[number]) => ({ id: r.id, title: r.title, repo_name: r.repoName });
  return {
    running_agents: rows.filter((r) => (WORKING_STATUSES as readonly string[]).includes(r.status)).map(item),
    unread_agents: rows
      .filter((r) => r.latest !== null && (r.readAt === null || r.readAt < r.latest))
      .map(item),
  };
}
