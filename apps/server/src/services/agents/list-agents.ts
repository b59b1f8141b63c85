import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { agents, memberships, repositories, users, type Db } from '@tandem/db';
import { type AgentMetadata, type agentListQuerySchema } from '@tandem/shared';
import type { z } from 'zod';
import type { AuthenticatedUser } from '../sessions.js';

import { metadataFor } from './agent-metadata.js';
import { containsPattern } from '../like-pattern.js';

/** `creator:{name|me}`, `is:archived`, `is:unarchived`, and free text matched against titles. */
export function parseAgentSearch(search: string) {
  let creator: string | undefined;
  let archived: boolean | undefined;
  const words: string[] = [];
  for (const token of search.trim().split(/\s+/).filter(Boolean)) {
    const lower = token.toLowerCase();
    if (lower.startsWith('creator:')) creator = token.slice('creator:'.length);
    else if (lower === 'is:archived') archived = true;
    else if (lower === 'is:unarchived') archived = false;
    else words.push(token);
  }
  return { creator, archived, text: words.join(' ') };
}

export async function listAgents(
  db: Db,
  viewer: AuthenticatedUser,
  query: z.infer<typeof agentListQuerySchema>,
  only: { agentType?: 'supervisor' | 'editor' } = {},
): Promise<{ agents: AgentMetadata[]; count: number }> {
  const search = parseAgentSearch(query.search);
  const filters: SQL[] = [];
  if (only.agentType) filters.push(eq(agents.agentType, only.agentType));
  if (!(query.admin === 'true' && viewer.admin)) {
    const member = db
      .select({ id: memberships.installationId })
      .from(memberships)
      .where(eq(memberships.userId, viewer.id));
    filters.push(inArray(agents.installationId, member));
    const shared = db
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.agentsPublic, true));
    filters.push(or(eq(agents.creatorId, viewer.id), inArray(agents.repositoryId, shared))!);
  }
  if (search.creator) {
    const name = search.creator.toLowerCase() === 'me' ? null : search.creator;
    if (name === null) filters.push(eq(agents.creatorId, viewer.id));
    else
      filters.push(
        inArray(
          agents.creatorId,
          db
            .select({ id: users.id })
            .from(users)
            .where(sql`lower(${users.username}) = ${name.toLowerCase()}`),
        ),
      );
  }
  if (search.archived !== undefined) filters.push(eq(agents.archived, search.archived));
  if (search.text) filters.push(ilike(agents.title, containsPattern(search.text)));
  if (query.repository_name) {
    filters.push(
      inArray(
        agents.repositoryId,
        db
          .select({ id: repositories.id })
          .from(repositories)
          .where(sql`lower(${repositories.fullName}) = ${query.repository_name.toLowerCase()}`),
      ),
    );
  }
  const where = filters.length ? and(...filters) : undefined;
  const order =
    query.orderBy === 'created_at_asc'
      ? asc(agents.createdAt)
      : query.orderBy === 'last_active'
        ? desc(agents.lastActive)
        : desc(agents.createdAt);
  const rows = await db
    .select()
    .from(agents)
    .where(where)
    .orderBy(order, desc(agents.id))
    .limit(query.rows_per_page)
    .offset((query.page - 1) * query.rows_per_page);
  const [total] = await db.select({ n: count() }).from(agents).where(where);
  return { agents: await metadataFor(db, viewer, rows), count: total?.n ?? 0 };
}
