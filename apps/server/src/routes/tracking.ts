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
import { publicWrite } from '../auth/client-limits.js';
import { ownLeadId, setLeadCookie } from '../auth/lead-cookie.js';
import type { RateLimits } from '../config/rate-limits.js';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';

const eventList = z.array(sessionEventSchema).max(MAX_EVENTS_PER_BATCH);

export function trackingRoutes(
  app: FastifyInstance,
  deps: { db: Db; rateLimits: RateLimits | false; secureCookies: boolean },
): void {
  /**
   * Records how a visitor arrived; returns their lead id: the same one when this browser created
   * it (lead cookie), else a new one. A lead id from anywhere else is never updated or echoed.
   */
  app.post('/api/track-visit', publicWrite(deps.rateLimits, 'trackVisit'), async (request, reply) => {
    const body = parseRequest(trackVisitSchema, request.body, 'body');
    const leadId = ownLeadId(request, body.lead_id);
    const known = leadId
      ? (await deps.db.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId)).limit(1))[0]
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
    setLeadCookie(reply, id, deps.secureCookies);
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
    // A batch is at most MAX_EVENTS_PER_BATCH small events; 64 KB is plenty.
    scope.post(
      '/api/track-session',
      publicWrite(deps.rateLimits, 'trackSession', 64 * 1024),
      async (request, reply) => {
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
      },
    );
  });
}
