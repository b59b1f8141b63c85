import { and, eq, inArray } from 'drizzle-orm';
import { agentReads, repositories, users, type Db } from '@tandem/db';
import { type AgentMetadata } from '@tandem/shared';
import { sourcesOf } from '../sources.js';
import type { AuthenticatedUser } from '../sessions.js';

import { visibleAgent, type AgentRow } from './agent-access.js';

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
  const sources = await sourcesOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const readAt = reads.find((r) => r.agentId === row.id)?.readAt;
    return {
      id: row.id,
      title: row.title,
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
