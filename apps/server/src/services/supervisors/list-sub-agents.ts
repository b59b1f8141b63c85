import type { SubAgentView } from '@tandem/agent';
import { agents, agentSources, conversationItems, repositories, type Db } from '@tandem/db';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';

// Statuses in which a sub-agent is still at work, or will wake by itself.
export { WORKING_STATUSES } from '@tandem/shared';

/** The pull requests of these agents' branches, as links on the code host. */
async function pullRequests(db: Db, webUrl: string, agentIds: string[]): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>();
  if (!agentIds.length) return links;
  const rows = await db
    .select({ agentId: agentSources.agentId, number: agentSources.number, repo: repositories.fullName })
    .from(agentSources)
    .innerJoin(repositories, eq(repositories.id, agentSources.repositoryId))
    .where(
      and(
        inArray(agentSources.agentId, agentIds),
        eq(agentSources.type, 'branch'),
        isNotNull(agentSources.number),
      ),
    )
    .orderBy(asc(agentSources.createdAt));
  for (const row of rows) {
    const list = links.get(row.agentId) ?? [];
    list.push(`${webUrl.replace(/\/$/, '')}/${row.repo}/pull/${row.number}`);
    links.set(row.agentId, list);
  }
  return links;
}

/** The newest task_complete summary of an agent. */
async function lastSummary(db: Db, agentId: string): Promise<string | null> {
  const [row] = await db
    .select({ data: conversationItems.data })
    .from(conversationItems)
    .where(and(eq(conversationItems.agentId, agentId), eq(conversationItems.actionType, 'TaskCompleteEvent')))
    .orderBy(desc(conversationItems.timestamp))
    .limit(1);
  const summary = row?.data.task_summary;
  return typeof summary === 'string' ? summary : null;
}

/** Sub-agents by id (or all of a supervisor's), oldest first, as the supervisor's tools show them. */
export async function subAgentViews(
  db: Db,
  webUrl: string,
  where: { supervisorId: string } | { ids: string[] },
): Promise<SubAgentView[]> {
  const rows = await db
    .select({
      id: agents.id,
      number: agents.number,
      title: agents.title,
      status: agents.status,
      repository: repositories.fullName,
    })
    .from(agents)
    .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
    .where('ids' in where ? inArray(agents.id, where.ids) : eq(agents.supervisorId, where.supervisorId))
    .orderBy(asc(agents.createdAt), asc(agents.id));
  const links = await pullRequests(
    db,
    webUrl,
    rows.map((r) => r.id),
  );
  return Promise.all(
    rows.map(async (row) => ({
      ...row,
      pullRequests: links.get(row.id) ?? [],
      summary: await lastSummary(db, row.id),
    })),
  );
}
