import { and, eq, sql } from 'drizzle-orm';
import { agents, memberships, repositories, type Db } from '@tandem/db';
import { notFound } from '../errors/app-error.js';
import { mayView, PARTY_PURPOSE } from './agents.js';
import type { PollCache, PolledAgent } from './poll-cache/poll-cache.js';
import { preparedPerDatabase } from './poll-queries.js';
import type { AuthenticatedUser } from './sessions.js';

const agentPoll = preparedPerDatabase(
  (db, name) =>
    db
      .select({
        latest: agents.latestTimestamp,
        creatorId: agents.creatorId,
        installationId: agents.installationId,
        agentsPublic: repositories.agentsPublic,
        purpose: agents.purpose,
      })
      .from(agents)
      .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
      .where(eq(agents.id, sql.placeholder('agent')))
      .limit(1)
      .prepare(name),
  'tandem_latest_timestamp',
);

const memberPoll = preparedPerDatabase(
  (db, name) =>
    db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(
        and(
          eq(memberships.installationId, sql.placeholder('installation')),
          eq(memberships.userId, sql.placeholder('viewer')),
        ),
      )
      .limit(1)
      .prepare(name),
  'tandem_poll_member',
);

/**
 * The workspace's 2.5 s poll (GET /api/agent/latest-timestamp): the agent's latest_timestamp and
 * what the access rule needs, from the poll cache (kept true by change notices) or from one
 * primary-key read, plus a membership read only when the answer hangs on it.
 */
export async function latestTimestamp(
  db: Db,
  cache: PollCache,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<{ latest_timestamp: string | null }> {
  const agent = await cache.agents.get(agentId, async () => {
    const [row] = await agentPoll(db).execute({ agent: agentId });
    return row ? { ...row, latest: row.latest?.toISOString() ?? null } : MISSING;
  });
  if (agent === MISSING || !(await mayViewPolled(db, cache, viewer, agent)))
    throw notFound('Agent not found');
  return { latest_timestamp: agent.latest };
}

/** An agent that does not exist, kept like any other answer until a notice names its id. */
const MISSING: PolledAgent = {
  latest: null,
  creatorId: '',
  installationId: -1,
  agentsPublic: null,
  purpose: null,
};

async function mayViewPolled(db: Db, cache: PollCache, viewer: AuthenticatedUser, agent: PolledAgent) {
  if (viewer.admin || agent.creatorId === viewer.id || agent.purpose === PARTY_PURPOSE) return true;
  if (agent.agentsPublic !== true) return false;
  const member = await cache.members.get(`${agent.installationId}/${viewer.id}`, async () => {
    const [row] = await memberPoll(db).execute({ installation: agent.installationId, viewer: viewer.id });
    return row !== undefined;
  });
  return mayView(viewer, { ...agent, member: member ? viewer.id : null });
}
