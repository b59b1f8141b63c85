import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import { z } from 'zod';
import { requireUser } from '../auth/authenticate.js';
import { notFound } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import { loadAgent } from '../services/agents.js';
import { findEventImage } from '../services/images.js';

const imageParams = z.object({
  action_uuid: z.string().uuid('Image not found'),
  n: z.coerce.number().int().min(1).max(1000),
});

/** Images attached to messages, for whoever may see the agent (cookies follow <img> requests). */
export function userAssetRoutes(app: FastifyInstance, deps: { db: Db }): void {
  app.get('/user_asset/event/:action_uuid/:n', async (request, reply) => {
    const viewer = requireUser(request);
    const { action_uuid, n } = parseRequest(imageParams, request.params, 'path');
    const image = await findEventImage(deps.db, action_uuid, n);
    await loadAgent(deps.db, viewer, image.agentId).catch(() => {
      throw notFound('Image not found');
    });
    return reply
      .header('content-type', image.mimeType)
      .header('content-length', image.bytes.length)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('content-disposition', `inline; filename="${image.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`)
      .send(image.bytes);
  });
}
