import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
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
import { recordSessionEvents, recordVisit } from '../services/tracking/leads.js';

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
    const visit = await recordVisit(deps.db, {
      ownLeadId: ownLeadId(request, body.lead_id) ?? null,
      data: body.lead_data,
      userId: request.user?.id ?? null,
    });
    if (visit.created) setLeadCookie(reply, visit.leadId, deps.secureCookies);
    return { lead_id: visit.leadId };
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
        await recordSessionEvents(deps.db, {
          leadId: body.lead_id ?? null,
          userId: request.user?.id ?? null,
          events,
        });
        return reply.status(204).send();
      },
    );
  });
}
