import type { FastifyInstance } from 'fastify';
import type { AgentRunner } from '@tandem/agent';
import type { Db } from '@tandem/db';
import type { GitHubClient } from '@tandem/github';
import { repoPathParamsSchema, SCRIPTS_MESSAGES } from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import type { ModelsConfig } from '../config/schema.js';
import { AppError, forbidden } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { readMemberRepository } from '../services/agents.js';
import { generateScripts } from '../services/repositories/generate-scripts.js';
import type { RepositoryAccess } from '../services/repositories/repository-access.js';
import { repositoryScripts } from '../services/repositories/repository-scripts.js';
import type { SunsetGate } from '../services/sunset-gate.js';
import { modelChoices } from './models.js';

/** The repository's scripts and their generation (platform §4, §7): product admins only. */
export function scriptRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    access: RepositoryAccess;
    models: ModelsConfig;
    runner: Pick<AgentRunner, 'enqueue'>;
    sunset: SunsetGate;
    reader: { webUrl: string; installationClient(installationId: number): GitHubClient };
  },
): void {
  const fullName = (params: unknown) => {
    const { repo_owner, repo_name } = parseRequest(repoPathParamsSchema, params, 'path');
    return `${repo_owner}/${repo_name}`;
  };

  app.get('/api/repositories/:repo_owner/:repo_name/scripts', async (request) => {
    const viewer = requireUser(request);
    const repository = await deps.access.require(viewer, fullName(request.params));
    if (!viewer.admin) throw forbidden(SCRIPTS_MESSAGES.adminsOnly);
    try {
      return await repositoryScripts(deps.db, deps.reader, repository);
    } catch (error) {
      if (error instanceof AppError && error.status === 502)
        request.log.warn({ err: error.cause, repository: repository.fullName }, 'reading scripts failed');
      throw error;
    }
  });

  app.post('/api/repositories/:repo_owner/:repo_name/generate-scripts', async (request) => {
    const viewer = requireUser(request);
    // The agent pushes a branch and opens a pull request: write access, like any new agent, and
    // the repository read once for the check and the creation (as the create-agent route does).
    const repository = await deps.access.requireRow(
      viewer,
      await readMemberRepository(deps.db, viewer.id, fullName(request.params)),
      'write',
    );
    if (!viewer.admin) throw forbidden(SCRIPTS_MESSAGES.adminsOnly);
    const created = await generateScripts(deps.db, viewer, repository, {
      models: modelChoices(deps.models),
      sunset: deps.sunset,
    });
    deps.runner.enqueue(created.agent_id);
    return created;
  });
}
