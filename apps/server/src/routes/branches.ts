import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import type { GitHubClient } from '@tandem/github';
import { repositoryPathSchema } from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { listRepositoryBranches } from '../services/branches/list-repository-branches.js';

/** The new-agent form's base-branch picker (workspace §2). */
export function branchRoutes(
  app: FastifyInstance,
  deps: { db: Db; reader: { installationClient(installationId: number): GitHubClient } },
): void {
  app.get('/api/repositories/:owner/:repo/branches', async (request) => {
    const viewer = requireUser(request);
    const { owner, repo } = parseRequest(repositoryPathSchema, request.params, 'path');
    try {
      return await listRepositoryBranches(deps.db, deps.reader, viewer, `${owner}/${repo}`);
    } catch (error) {
      if (error instanceof AppError && error.status === 502)
        request.log.warn({ err: error.cause, repository: `${owner}/${repo}` }, 'listing branches failed');
      throw error;
    }
  });
}
