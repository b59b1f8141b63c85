import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import type { GitHubClient } from '@tandem/github';
import { repoPathParamsSchema } from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { listRepositoryBranches } from '../services/branches/list-repository-branches.js';
import type { RepositoryAccess } from '../services/repositories/repository-access.js';

/** The new-agent form's base-branch picker (workspace §2): anyone with an access level. */
export function branchRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    access: RepositoryAccess;
    reader: { installationClient(installationId: number): GitHubClient };
  },
): void {
  app.get('/api/repositories/:repo_owner/:repo_name/branches', async (request) => {
    const { repo_owner, repo_name } = parseRequest(repoPathParamsSchema, request.params, 'path');
    const repository = await deps.access.require(requireUser(request), `${repo_owner}/${repo_name}`);
    try {
      return await listRepositoryBranches(deps.db, deps.reader, repository);
    } catch (error) {
      if (error instanceof AppError && error.status === 502)
        request.log.warn({ err: error.cause, repository: repository.fullName }, 'listing branches failed');
      throw error;
    }
  });
}
