import type { FastifyInstance } from 'fastify';
import type { Db } from '@tandem/db';
import { CHECKED_WEBHOOK_EVENTS, webhookPayloadSchema } from '@tandem/shared';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import type { CodeHostGateway } from '../github/gateway.js';
import {
  deliveryTime,
  payloadKey,
  pruneDeliveries,
  recordDelivery,
  WEBHOOK_MAX_AGE_MS,
} from '../services/webhook-deliveries.js';
import { HANDLED_WEBHOOK_EVENTS } from '../services/webhook-events.js';
import type { WebhookQueue } from '../services/webhook-queue.js';

/** Old delivery rows are pruned at most this often per process. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * POST /api/github/webhooks. The signature is checked over the raw bytes before anything is
 * parsed; a delivery id seen before is acknowledged without being processed again. Deliveries
 * whose body dates them are refused once older than WEBHOOK_MAX_AGE_MS and are also remembered by
 * their body's digest, since the delivery id header is not signed (docs/security/http.md).
 * A new delivery is stored with its checked payload and answered at once; the webhook queue
 * applies it (with retries), so a slow handler never makes GitHub time out and redeliver.
 */
export function githubWebhookRoutes(
  app: FastifyInstance,
  deps: { db: Db; gateway: Pick<CodeHostGateway, 'verifyWebhook'>; queue: Pick<WebhookQueue, 'kick'> },
): void {
  let prunedAt = 0;
  app.register(async (scope) => {
    // Keep the raw body: re-serialised JSON would not match the sender's signature.
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 25 * 1024 * 1024 },
      (_req, body, done) => done(null, body),
    );

    scope.post('/api/github/webhooks', async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = header(request.headers['x-hub-signature-256']);
      if (!(await deps.gateway.verifyWebhook(raw, signature))) {
        throw new AppError('unauthorized', 'Invalid webhook signature');
      }
      const event = header(request.headers['x-github-event']);
      const deliveryId = header(request.headers['x-github-delivery']);
      if (!event || !deliveryId)
        throw new AppError('bad_request', 'Missing X-GitHub-Event or X-GitHub-Delivery');

      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        throw new AppError('bad_request', 'Webhook body is not JSON');
      }
      // Signed is not well-formed: the parts the handlers use are checked first (422 otherwise).
      const payload = parseRequest(webhookPayloadSchema(event), parsed, 'body');
      const action = payload.action ?? null;
      const installationId = payload.installation?.id;

      const at = new Date();
      // Dated from the signed body as sent: the checked payload keeps only what handlers read.
      const sent = deliveryTime(event, parsed);
      if (sent && at.getTime() - sent.getTime() > WEBHOOK_MAX_AGE_MS) {
        request.log.warn({ deliveryId, event, action, sent }, 'refused a stale webhook delivery');
        throw new AppError(
          'bad_request',
          `Webhook delivery is from ${sent.toISOString()}, older than ${WEBHOOK_MAX_AGE_MS / 3_600_000} hours; refused as a possible replay`,
        );
      }
      if (at.getTime() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = at.getTime();
        await pruneDeliveries(deps.db, at);
      }

      // The header id, and for a dated delivery its signed body too: either seen before is a replay.
      const keys = sent ? [payloadKey(raw), deliveryId] : [deliveryId];
      const row = {
        deliveryId,
        event,
        action,
        installationId: typeof installationId === 'number' ? installationId : null,
        requestId: request.id,
      };
      // Events without a full schema keep their whole payload for handlers that read more.
      const job = HANDLED_WEBHOOK_EVENTS.has(event)
        ? JSON.stringify(CHECKED_WEBHOOK_EVENTS.has(event) ? payload : parsed)
        : undefined;
      if (!(await recordDelivery(deps.db, keys, row, job))) return reply.send({ ok: true, duplicate: true });
      if (job) deps.queue.kick();
      return reply.send({ ok: true });
    });
  });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
