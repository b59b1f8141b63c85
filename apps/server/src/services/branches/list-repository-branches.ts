import { and, eq, sql } from 'drizzle-orm';
import { memberships, repositories, type Db } from '@tandem/db';
import { listBranches, type GitHubClient } from '@tandem/github';
import { BRANCH_DATA_ERROR, type RepositoryBranches } from '@tandem/shared';
import { AppError, notFound } from '../../errors/app-error.js';
import type { AuthenticatedUser } from '../sessions.js';

/**
 * The repository's branches for the base-branch picker, read as its installation. Only members of
 * the installation see them; anyone else gets the 404 of a missing repository, so names do not leak.
 */
export async function listRepositoryBranches(
  db: Db,
  reader: { installationClient(installationId: number): GitHubClient },
  viewer: AuthenticatedUser,
  fullName: string,
): Promise<RepositoryBranches> {
  const [repo] = await db
    .select({
      fullName: repositories.fullName,
      installationId: repositories.installationId,
      defaultBranch: repositories.defaultBranch,
    })
    .from(repositories)
    .innerJoin(
      memberships,
      and(eq(memberships.installationId, repositories.installationId), eq(memberships.userId, viewer.id)),
    )
    .where(
      sql`lower(${repositories.fullName}) = ${fullName.toLowerCase()} and ${repositories.removedAt} is null`,
    )
    .limit(1);
  if (!repo) throw notFound('Repository not found');
  const [owner = '', name = ''] = repo.fullName.split('/');
  try {
    const branches = await listBranches(reader.installationClient(repo.installationId), {
      owner,
      repo: name,
    });
    return {
      default_branch: repo.defaultBranch,
      branches: branches.map((b) => ({ name: b.name, committed_date: b.committedDate })),
    };
  } catch (error) {
    // The route logs the cause; the browser gets the spec's text.
    throw Object.assign(new AppError('bad_gateway', BRANCH_DATA_ERROR), { cause: error });
  }
}
