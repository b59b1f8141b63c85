import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import {
  repoPathParamsSchema,
  REPOSITORY_SETTINGS_MESSAGES,
  scriptLogListQuerySchema,
  scriptLogParamsSchema,
  updateRepositorySettingsSchema,
  type RepositoryAccess as RepositoryAccessBody,
} from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import type { ModelsConfig } from '../config/schema.js';
import { parseRequest } from '../http/validation.js';
import { getRepositorySettings } from '../services/repositories/get-repository-settings.js';
import { getScriptLog } from '../services/repositories/get-script-log.js';
import { listScriptLogs } from '../services/repositories/list-script-logs.js';
import type { RepositoryAccess } from '../services/repositories/repository-access.js';
import { updateRepositorySettings } from '../services/repositories/update-repository-settings.js';
import { modelList } from './models.js';

/**
 * The repository page's calls (platform §7): the viewer's access level, the repository settings
 * and the script logs. Anyone without an access level gets 404 from every one of them.
 */
export function repositoryRoutes(
  app: FastifyInstance,
  deps: { db: Db; access: RepositoryAccess; models: ModelsConfig },
): void {
  const { db, access } = deps;
  const fullName = (params: unknown) => {
    const { repo_owner, repo_name } = parseRequest(repoPathParamsSchema, params, 'path');
    return `${repo_owner}/${repo_name}`;
  };

  app.get('/api/repositories/:repo_owner/:repo_name/access', async (request) => {
    const repository = await access.require(requireUser(request), fullName(request.params));
    const body: RepositoryAccessBody = { access_level: repository.level };
    return body;
  });

  app.get('/api/repositories/:repo_owner/:repo_name/logs', async (request) => {
    const repository = await access.require(requireUser(request), fullName(request.params));
    return listScriptLogs(db, repository, parseRequest(scriptLogListQuerySchema, request.query, 'query'));
  });

  app.get('/api/scripts/log/:log_uuid', async (request) => {
    const { log_uuid } = parseRequest(scriptLogParamsSchema, request.params, 'path');
    return getScriptLog(db, access, requireUser(request), log_uuid);
  });

  app.get('/api/settings/repository/:repo_owner/:repo_name', async (request) => {
    const repository = await access.require(requireUser(request), fullName(request.params));
    return getRepositorySettings(db, repository.id);
  });

  app.patch('/api/settings/repository/:repo_owner/:repo_name', async (request) => {
    const viewer = requireUser(request);
    const name = fullName(request.params);
    const repository = await access.require(viewer, name, 'write', REPOSITORY_SETTINGS_MESSAGES.writeNeeded);
    const change = parseRequest(updateRepositorySettingsSchema, request.body, 'body');
    const { models } = modelList(deps.models, viewer.admin);
    return updateRepositorySettings(db, repository.id, change, {
      selectable: (key) => models.some((m) => m.key === key && m.available),
    });
  });
}
