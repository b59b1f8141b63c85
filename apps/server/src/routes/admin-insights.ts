import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import { adminListQuerySchema, adminRangeQuerySchema, adminUserSessionsQuerySchema } from '@tandem/shared';
import { z } from 'zod';
import { parseRequest } from '../http/validation.js';
import { getDashboard } from '../services/admin/get-dashboard.js';
import { getLeadInfo } from '../services/admin/get-lead-info.js';
import { getModelUsage } from '../services/admin/get-model-usage.js';
import { listRepositories } from '../services/admin/list-repositories.js';
import { listUserSessions } from '../services/admin/list-user-sessions.js';
import { listUsers } from '../services/admin/list-users.js';
import { requireAdmin } from './admin.js';

const modelParams = z.object({ model_name: z.string().min(1).max(200) });
const userParams = z.object({ user_id: z.uuid() });

/** The admin dashboard and the admin users and repositories tables (platform §7 Admin; issue 21). */
export function adminInsightRoutes(app: FastifyInstance, deps: { db: Db }): void {
  app.get('/api/admin/admin_dashboard', async (request) => {
    requireAdmin(request);
    const { days } = parseRequest(adminRangeQuerySchema, request.query, 'query');
    return getDashboard(deps.db, days);
  });

  // The spec names anthropic-usage; every provider's models are answered the same way.
  for (const path of ['/api/admin/model-usage/:model_name', '/api/admin/anthropic-usage/:model_name']) {
    app.get(path, async (request) => {
      requireAdmin(request);
      const { model_name } = parseRequest(modelParams, request.params, 'path');
      const { days } = parseRequest(adminRangeQuerySchema, request.query, 'query');
      return getModelUsage(deps.db, model_name, days);
    });
  }

  app.get('/api/admin/users', async (request) => {
    requireAdmin(request);
    return listUsers(deps.db, parseRequest(adminListQuerySchema, request.query, 'query'));
  });

  app.get('/api/admin/user-sessions', async (request) => {
    requireAdmin(request);
    return listUserSessions(deps.db, parseRequest(adminUserSessionsQuerySchema, request.query, 'query'));
  });

  app.get('/api/admin/user/:user_id/lead-info', async (request) => {
    requireAdmin(request);
    const { user_id } = parseRequest(userParams, request.params, 'path');
    return getLeadInfo(deps.db, user_id);
  });

  app.get('/api/admin/repositories', async (request) => {
    requireAdmin(request);
    return listRepositories(deps.db, parseRequest(adminListQuerySchema, request.query, 'query'));
  });
}
