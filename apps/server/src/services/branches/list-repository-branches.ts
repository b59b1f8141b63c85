import type { Db } from '@tandem/db';
import { listBranches, type GitHubClient } from '@tandem/github';
import { BRANCH_DATA_ERROR, type RepositoryBranches } from '@tandem/shared';
import { AppError } from '../../errors/app-error.js';
import type { AccessibleRepository } from '../repositories/repository-access.js';

/**
 * The repository's branches for the base-branch picker, read as its installation. The caller has
 * checked the viewer's access level (RepositoryAccess.require), so names never leak.
 */
export async function listRepositoryBranches(
  db: Db,
  reader: { installationClient(installationId: number): GitHubClient },
  repository: AccessibleRepository,
): Promise<RepositoryBranches> {
  const [owner = '', name = ''] = repository.fullName.split('/');
  try {
    const branches = await listBranches(reader.installationClient(repository.installationId), {
      owner,
      repo: name,
    });
    return {
      default_branch: repository.defaultBranch,
      branches: branches.map((b) => ({ name: b.name, committed_date: b.committedDate })),
    };
  } catch (error) {
    // The route logs the cause; the browser gets the spec's text.
    throw Object.assign(new AppError('bad_gateway', BRANCH_DATA_ERROR), { cause: error });
  }
}
