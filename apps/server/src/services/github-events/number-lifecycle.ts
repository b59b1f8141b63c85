import { and, eq } from 'drizzle-orm';
import { appendItem } from '@tandem/agent';
import { agents, agentSources, type Db } from '@tandem/db';

/**
 * An issue or pull request an agent follows was closed, merged or reopened on the code host: the
 * agent's feed shows it (workspace §3 number_lifecycle). It does not wake the agent: a closed or
 * merged pull request ends its work there, and the source's state says so.
 */
export async function recordNumberLifecycle(
  db: Db,
  repository: { id: string; fullName: string },
  change: {
    number: number;
    action: 'closed' | 'merged' | 'reopened';
    type: 'issue' | 'pull_request';
    title: string | undefined;
    htmlUrl: string | undefined;
    /** The delivery it came from: a redelivery does not add it twice. */
    key: string;
  },
): Promise<void> {
  const followers = await db
    .selectDistinct({ agentId: agentSources.agentId })
    .from(agentSources)
    .innerJoin(agents, eq(agents.id, agentSources.agentId))
    .where(
      and(
        eq(agentSources.repositoryId, repository.id),
        eq(agentSources.number, change.number),
        eq(agents.archived, false),
      ),
    );
  for (const { agentId } of followers) {
    await appendItem(db, agentId, {
      itemType: 'number_lifecycle',
      dedupeKey: `lifecycle:${change.key}`,
      data: {
        repository_name: repository.fullName,
        action: change.action,
        number: change.number,
        type: change.type,
        title: change.title ?? null,
        html_url: change.htmlUrl ?? null,
      },
    });
  }
}
