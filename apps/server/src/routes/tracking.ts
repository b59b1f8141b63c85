import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { leads, sessionEvents, type Db } from '@tandem/db';
import {
  MAX_EVENTS_PER_BATCH,
  sessionEventSchema,
  trackSessionSchema,
  trackVisitSchema,
} from '@tandem/shared';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';

const eventList = z.array(sessionEventSchema).max(MAX_EVENTS_PER_BATCH);

export function trackingRoutes(app: FastifyInstance, deps: { db: Db }): void {
  /** Records how a visitor arrived; returns their lead id (a new one unless they sent a known one). */
  app.post('/api/track-visit', async (request) => {
    const body = parseRequest(trackVisitSchema, request.body, 'body');
    const known = body.lead_id
      ? (await deps.db.select({ id: leads.id }).from(leads).where(eq(leads.id, body.lead_id)).limit(1))[0]
      : undefined;
    if (known) {
      await deps.db
        .update(leads)
        .set({ data: body.lead_data, updatedAt: new Date() })
        .where(eq(leads.id, known.id));
      return { lead_id: known.id };
    }
    const id = randomUUID();
    await deps.db.insert(leads).values({ id, data: body.lead_data, userId: request.user?.id ?? null });
    return { lead_id: id };
  });

  /**
   * A batch of page_view / scroll / end events. Beacons cannot set headers, so the body may
   * arrive as text; it is parsed and validated here like any other.
   */
  app.register(async (scope) => {
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new AppError('bad_request', 'Tracking body is not JSON'), undefined);
      }
    });
    scope.post('/api/track-session', async (request, reply) => {
      const body = parseRequest(trackSessionSchema, request.body, 'body');
      let events;
      try {
        events = eventList.parse(JSON.parse(body.events));
      } catch {
        throw new AppError('bad_request', 'events must be a JSON array of tracking events');
      }
      if (events.length) {
        await deps.db.insert(sessionEvents).values(
          events.map((e) => ({
            leadId: body.lead_id ?? null,
            userId: request.user?.id ?? null,
            type: e.type,
            timestamp: new Date(e.timestamp),
            data: e.data,
          })),
        );
      }
      return reply.status(204).send();
    });
  });
}
