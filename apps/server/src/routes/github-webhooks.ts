import type { FastifyInstance } from 'fastify';
import { webhookDeliveries, type Db } from '@tandem/db';
import { AppError } from '../errors/app-error.js';
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

      let payload: unknown;
      try {
        payload = JSON.parse(raw);
      } catch {
        throw new AppError('bad_request', 'Webhook body is not JSON');
      }
      const action =
        typeof (payload as { action?: unknown }).action === 'string'
          ? (payload as { action: string }).action
          : null;
      const installationId = (payload as { installation?: { id?: unknown } }).installation?.id;

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
        await handleWebhookEvent(deps.db, event, payload, request.log);
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
