import { and, eq, sql } from 'drizzle-orm';
import { installations, memberships, prepared, repositories, type Db } from '@tandem/db';
import type { InstallationStanding } from './agent-access.js';

/**
 * An installed repository as creating an agent checks it: the columns the code host's access
 * check takes (RepositoryAccess.requireRow), whether the viewer is a member of its installation,
 * the installation's standing and the repository's default models.
 */
export interface MemberRepository extends InstallationStanding {
  id: string;
  fullName: string;
  installationId: number;
  private: boolean;
  defaultBranch: string;
  defaultModel: string | null;
  defaultReviewModel: string | null;
  /** Whether the viewer is a member of the repository's installation (agents spend its credits). */
  member: boolean;
}

/**
 * The repository `owner/name` (any case, not removed) with everything creating an agent checks, in
 * one read: a hundred agents started at once each read it (issue 15), so the access check and the
 * creation share it instead of reading the repository twice.
 */
export async function readMemberRepository(
  db: Db,
  viewerId: string,
  fullName: string,
): Promise<MemberRepository | undefined> {
  const [row] = await prepared(db, 'member_repository', (d, name) =>
    d
      .select({
        id: repositories.id,
        fullName: repositories.fullName,
        installationId: repositories.installationId,
        private: repositories.private,
        defaultBranch: repositories.defaultBranch,
        defaultModel: repositories.defaultModel,
        defaultReviewModel: repositories.defaultReviewModel,
        balance: installations.creditBalance,
        bannedAt: installations.bannedAt,
        suspendedAt: installations.suspendedAt,
        member: sql<boolean>`${memberships.userId} is not null`,
      })
      .from(repositories)
      .leftJoin(
        memberships,
        and(
          eq(memberships.installationId, repositories.installationId),
          eq(memberships.userId, sql.placeholder('userId')),
        ),
      )
      .leftJoin(installations, eq(installations.id, repositories.installationId))
      .where(
        sql`lower(${repositories.fullName}) = ${sql.placeholder('name')} and ${repositories.removedAt} is null`,
      )
      .limit(1)
      .prepare(name),
  ).execute({ userId: viewerId, name: fullName.toLowerCase() });
  return row;
}
