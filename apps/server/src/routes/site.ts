import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import { demoRequestSchema } from '@tandem/shared';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { publicWrite } from '../auth/client-limits.js';
import type { RateLimits } from '../config/rate-limits.js';
import { forbidden } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { addDemoRequest, listDemoRequests } from '../services/site/demo-requests.js';

const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  rows_per_page: z.coerce.number().int().min(1).max(100).default(25),
});

export function siteRoutes(app: FastifyInstance, deps: { db: Db; rateLimits: RateLimits | false }): void {
  /** Request a Demo: stored before answering, so a success always means it was kept. */
  app.post('/api/demo/request', publicWrite(deps.rateLimits, 'demoRequest'), async (request) => {
    const body = parseRequest(demoRequestSchema, request.body, 'body');
    await addDemoRequest(deps.db, { email: body.email, message: body.message, leadId: body.lead_id ?? null });
    request.log.info({ leadId: body.lead_id }, 'demo requested');
    return { success: true };
  });

  app.get('/api/admin/demo-requests', async (request) => {
    const user = requireUser(request);
    if (!user.admin) throw forbidden('Admins only');
    const { page, rows_per_page } = parseRequest(pageQuery, request.query, 'query');
    return listDemoRequests(deps.db, { page, rowsPerPage: rows_per_page });
  });
}
