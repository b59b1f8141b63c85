import { and, asc, eq, inArray } from 'drizzle-orm';
import { agentReads, agents, repositories, users, type Db } from '@tandem/db';
import {
  DEFAULT_AGENT_TITLE,
  SUPERVISOR_FALLBACK_TITLE,
  type AgentMetadata,
  type SubAgentItem,
} from '@tandem/shared';
import { sourcesOf } from '../sources.js';
import type { AuthenticatedUser } from '../sessions.js';

import { visibleAgent, type AgentRow } from './agent-access.js';

/** A supervisor not yet named shows as 'Agent Report' (workspace §2), in lists and on its page. */
export function displayedTitle(row: { title: string; agentType: string }): string {
  return row.agentType === 'supervisor' && row.title === DEFAULT_AGENT_TITLE
    ? SUPERVISOR_FALLBACK_TITLE
    : row.title;
}

export async function metadataFor(
  db: Db,
  viewer: AuthenticatedUser,
  rows: AgentRow[],
): Promise<AgentMetadata[]> {
  if (!rows.length) return [];
  const repoIds = [...new Set(rows.map((r) => r.repositoryId).filter((id): id is string => id !== null))];
  const creatorIds = [...new Set(rows.map((r) => r.creatorId))];
  const repos = repoIds.length
    ? await db
        .select({ id: repositories.id, fullName: repositories.fullName })
        .from(repositories)
        .where(inArray(repositories.id, repoIds))
    : [];
  const creators = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, creatorIds));
  const reads = await db
    .select()
    .from(agentReads)
    .where(
      and(
        eq(agentReads.userId, viewer.id),
        inArray(
          agentReads.agentId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const supervisorIds = rows.filter((r) => r.agentType === 'supervisor').map((r) => r.id);
  const subs = supervisorIds.length
    ? await db
        .select({
          id: agents.id,
          title: agents.title,
          status: agents.status,
          supervisorId: agents.supervisorId,
          repoName: repositories.fullName,
        })
        .from(agents)
        .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
        .where(inArray(agents.supervisorId, supervisorIds))
        .orderBy(asc(agents.createdAt), asc(agents.id))
    : [];
  const parentIds = [...new Set(rows.map((r) => r.supervisorId).filter((id): id is string => id !== null))];
  const parents = parentIds.length
    ? await db
        .select({
          id: agents.id,
          title: agents.title,
          agentType: agents.agentType,
          repoName: repositories.fullName,
        })
        .from(agents)
        .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
        .where(inArray(agents.id, parentIds))
    : [];
  const sources = await sourcesOf(db, [...rows.map((r) => r.id), ...subs.map((s) => s.id)]);
  const subAgentsOf = (id: string): SubAgentItem[] =>
    subs
      .filter((s) => s.supervisorId === id)
      .map((s) => ({
        id: s.id,
        title: s.title,
        status: s.status,
        repo_name: s.repoName,
        sources: sources.get(s.id) ?? {},
      }));
  const supervisorOf = (id: string | null) => {
    const parent = id ? parents.find((p) => p.id === id) : undefined;
    return parent ? { id: parent.id, title: displayedTitle(parent), repo_name: parent.repoName } : null;
  };
  return rows.map((row) => {
    const readAt = reads.find((r) => r.agentId === row.id)?.readAt;
    return {
      id: row.id,
      title: displayedTitle(row),
      status: row.status,
      repo_name: repos.find((r) => r.id === row.repositoryId)?.fullName ?? null,
      installation_id: row.installationId,
      sources: sources.get(row.id) ?? {},
      is_own: row.creatorId === viewer.id,
      model: row.model,
      review_model: row.reviewModel,
      summarization_limit: row.summarizationLimit,
      cur_tokens: row.curTokens,
      credits_spent: row.creditsSpent,
      agent_type: row.agentType,
      archived: row.archived,
      cur_ports: row.curPorts,
      base_branch: row.baseBranch,
      has_unread: row.latestTimestamp !== null && (!readAt || readAt < row.latestTimestamp),
      creator_username: creators.find((c) => c.id === row.creatorId)?.username ?? '',
      created_at: row.createdAt.toISOString(),
      last_active: row.lastActive.toISOString(),
      sub_agents: row.agentType === 'supervisor' ? subAgentsOf(row.id) : [],
      supervisor: supervisorOf(row.supervisorId),
    };
  });
}

export async function agentMetadata(
  db: Db,
  viewer: AuthenticatedUser,
  agentId: string,
): Promise<AgentMetadata> {
  const [metadata] = await metadataFor(db, viewer, [await visibleAgent(db, viewer, agentId)]);
  return metadata!;
}
