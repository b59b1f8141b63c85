import { and, eq, sql } from 'drizzle-orm';
import { agents, memberships, repositories, type Db } from '@tandem/db';
import { notFound } from '../errors/app-error.js';
import { mayView } from './agents.js';
import { preparedPerDatabase } from './poll-queries.js';
import type { AuthenticatedUser } from './sessions.js';

const agentPoll = preparedPerDatabase(
  (db, name) =>
    db
      .select({
        latest: agents.latestTimestamp,
        creatorId: agents.creatorId,
        agentsPublic: repositories.agentsPublic,
        member: memberships.userId,
      })
      .from(agents)
      .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
      .leftJoin(
        memberships,
        and(
          eq(memberships.installationId, agents.installationId),
          eq(memberships.userId, sql.placeholder('viewer')),
        ),
      )
      .where(eq(agents.id, sql.placeholder('agent')))
      .limit(1)
      .prepare(name),
  'tandem_latest_timestamp',
);

/**
 * The workspace's 2.5 s poll (GET /api/agent/latest-timestamp): the agent's latest_timestamp and
 * what the access rule needs, in one primary-key read, rather than the whole agent row.
 */
export async function latestTimestamp(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<{ latest_timestamp: string | null }> {
  const [row] = await agentPoll(db).execute({ viewer: viewer.id, agent: agentId });
  if (!row || !mayView(viewer, row)) throw notFound('Agent not found');
  return { latest_timestamp: row.latest?.toISOString() ?? null };
}
