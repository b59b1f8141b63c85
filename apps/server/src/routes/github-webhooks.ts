import type { FastifyInstance } from 'fastify';
import { webhookDeliveries, type Db } from '@tandem/db';
import { CHECKED_WEBHOOK_EVENTS, webhookPayloadSchema } from '@tandem/shared';
import { AppError } from '../errors/app-error.js';
import { parseRequest } from '../http/validation.js';
import type { CodeHostGateway } from '../github/gateway.js';
import { forgetDelivery, handleWebhookEvent, markDeliveryProcessed } from '../services/webhook-events.js';

/**
 * POST /api/github/webhooks. The signature is checked over the raw bytes before anything is
 * parsed; a delivery id seen before is acknowledged without being processed again.
 */
export function githubWebhookRoutes(app: FastifyInstance, deps: { db: Db; gateway: CodeHostGateway }): void {
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

      const inserted = await deps.db
        .insert(webhookDeliveries)
        .values({
          deliveryId,
          event,
          action,
          installationId: typeof installationId === 'number' ? installationId : null,
          requestId: request.id,
        })
        .onConflictDoNothing()
        .returning({ deliveryId: webhookDeliveries.deliveryId });
      if (!inserted.length) return reply.send({ ok: true, duplicate: true });

      try {
        // Events without a full schema keep their whole payload for handlers that read more.
        const forHandler = CHECKED_WEBHOOK_EVENTS.has(event) ? payload : parsed;
        await handleWebhookEvent(deps.db, event, forHandler, request.log);
      } catch (error) {
        await forgetDelivery(deps.db, deliveryId);
        throw error;
      }
      await markDeliveryProcessed(deps.db, deliveryId);
      return reply.send({ ok: true });
    });
  });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
