import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AgentRunner } from '@tandem/agent';
import type { Db } from '@tandem/db';
import { adminInstallationsQuerySchema, banInstallationSchema } from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { forbidden } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { banInstallation, installationBanned } from '../services/admin/ban-installation.js';
import { listInstallations } from '../services/admin/list-installations.js';

const installationParams = z.object({ installation_id: z.coerce.number().int().positive() });

/** Product admins only (platform §4); everyone else 403 (401 without a session). */
export function requireAdmin(request: FastifyRequest) {
  const user = requireUser(request);
  if (!user.admin) throw forbidden('Admins only');
  return user;
}

/** The admin area's API (platform §7 Admin). */
export function adminRoutes(
  app: FastifyInstance,
  deps: { db: Db; runner: Pick<AgentRunner, 'interrupt'> },
): void {
  app.get('/api/admin/installations', async (request) => {
    requireAdmin(request);
    return listInstallations(deps.db, parseRequest(adminInstallationsQuerySchema, request.query, 'query'));
  });

  app.post('/api/admin/ban-installation', async (request) => {
    const admin = requireAdmin(request);
    const body = parseRequest(banInstallationSchema, request.body, 'body');
    const result = await banInstallation(deps, body.installation_id, body.banned);
    request.log.info(
      {
        admin: admin.id,
        installationId: body.installation_id,
        banned: body.banned,
        stopped: result.stopped_agents,
      },
      'installation ban changed',
    );
    return result;
  });

  app.get('/api/admin/installation/:installation_id/banned', async (request) => {
    requireAdmin(request);
    const { installation_id } = parseRequest(installationParams, request.params, 'path');
    return installationBanned(deps.db, installation_id);
  });
}
