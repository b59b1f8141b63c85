import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import { addSecretSchema, deleteSecretSchema, SECRET_MESSAGES, type SecretList } from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { parseRequest } from '../http/validation.js';
import type { RepositoryAccess } from '../services/repositories/repository-access.js';
import { addSecret, deleteSecret, listSecrets } from '../services/secrets.js';

const repoParams = z.object({
  repo_owner: z.string().min(1).max(100),
  repo_name: z.string().min(1).max(100),
});

/** Repository secrets (platform §7). Values go in sealed and never come back out through the API. */
export function secretRoutes(
  app: FastifyInstance,
  deps: { db: Db; secretBox: SecretBox; access: RepositoryAccess },
): void {
  const { db } = deps;
  // Secrets are repository settings: reading their names needs write access too.
  const repository = async (request: Parameters<typeof requireUser>[0]) => {
    const viewer = requireUser(request);
    const params = parseRequest(repoParams, request.params, 'path');
    const fullName = `${params.repo_owner}/${params.repo_name}`;
    return (await deps.access.require(viewer, fullName, 'write', SECRET_MESSAGES.writeNeeded)).id;
  };

  app.get('/api/secrets/:repo_owner/:repo_name/get-secrets', async (request) => {
    const body: SecretList = { secrets: await listSecrets(db, await repository(request)) };
    return body;
  });

  app.post('/api/secrets/:repo_owner/:repo_name/add-secret', async (request) => {
    const repositoryId = await repository(request);
    const body = parseRequest(addSecretSchema, request.body, 'body');
    return addSecret(db, deps.secretBox, repositoryId, body);
  });

  app.post('/api/secrets/:repo_owner/:repo_name/delete-secret', async (request) => {
    const repositoryId = await repository(request);
    const { key } = parseRequest(deleteSecretSchema, request.body, 'body');
    await deleteSecret(db, repositoryId, key);
    return { success: true };
  });
}
