import { and, desc, eq, sql } from 'drizzle-orm';
import { agents, repositories, type Db } from '@tandem/db';
import { PARTY_PURPOSE, type AgentRow } from '../agents/agent-access.js';

/** The current party agent of the operator's repository: the newest one not archived, if any. */
export async function findPartyAgent(
  db: Db,
  repo: string,
): Promise<{ agent: AgentRow; repoName: string } | undefined> {
  const [row] = await db
    .select({ agent: agents, repoName: repositories.fullName })
    .from(agents)
    .innerJoin(repositories, eq(repositories.id, agents.repositoryId))
    .where(
      and(
        eq(agents.purpose, PARTY_PURPOSE),
        eq(agents.archived, false),
        sql`lower(${repositories.fullName}) = ${repo.toLowerCase()}`,
      ),
    )
    .orderBy(desc(agents.createdAt))
    .limit(1);
  return row;
}
