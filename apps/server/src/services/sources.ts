import { and, asc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { agents, agentSources, repositories, type Db } from '@tandem/db';
import type { Source } from '@tandem/shared';

/** Each agent's sources grouped by repository name, as Agent metadata carries them. */
export async function sourcesOf(db: Db, agentIds: string[]): Promise<Map<string, Record<string, Source[]>>> {
  const bySource = new Map<string, Record<string, Source[]>>();
  if (!agentIds.length) return bySource;
  const rows = await db
    .select({ source: agentSources, repoName: repositories.fullName })
    .from(agentSources)
    .innerJoin(repositories, eq(repositories.id, agentSources.repositoryId))
    .where(inArray(agentSources.agentId, agentIds))
    .orderBy(asc(agentSources.createdAt));
  for (const { source, repoName } of rows) {
    const grouped = bySource.get(source.agentId) ?? {};
    (grouped[repoName] ??= []).push({
      id: source.id,
      created_at: source.createdAt.toISOString(),
      type: source.type as Source['type'],
      number: source.number,
      branch: source.branch,
      behavior: source.behavior,
      state: source.state as Source['state'],
      pr_draft: source.prDraft,
      pr_draft_base_branch: source.prDraftBaseBranch,
    });
    bySource.set(source.agentId, grouped);
  }
  return bySource;
}

/**
 * Another unarchived agent already following one of this agent's issues or pull requests: then
 * unarchiving is refused with `error_data` linking that agent (two agents on one PR would fight).
 */
export async function conflictingAgent(
  db: Db,
  agentId: string,
): Promise<{ html_url: string; number: number } | null> {
  const mine = await db
    .select({ repositoryId: agentSources.repositoryId, number: agentSources.number })
    .from(agentSources)
    .where(and(eq(agentSources.agentId, agentId), isNotNull(agentSources.number)));
  for (const { repositoryId, number } of mine) {
    const [other] = await db
      .select({ id: agents.id, repoName: repositories.fullName })
      .from(agentSources)
      .innerJoin(agents, eq(agents.id, agentSources.agentId))
      .innerJoin(repositories, eq(repositories.id, agentSources.repositoryId))
      .where(
        and(
          eq(agentSources.repositoryId, repositoryId),
          eq(agentSources.number, number!),
          ne(agentSources.agentId, agentId),
          eq(agents.archived, false),
        ),
      )
      .limit(1);
    if (other) return { html_url: `/gh/${other.repoName}/agent/${other.id}`, number: number! };
  }
  return null;
}
