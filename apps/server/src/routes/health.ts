import type { FastifyInstance } from 'fastify';
import type { Database } from '@tandem/db';
import type { HealthResponse } from '@tandem/shared';

export function healthRoutes(
  app: FastifyInstance,
  deps: { database: Database; version: string; sandbox: string },
): void {
  app.get('/api/health', async (request, reply) => {
    let reachable = true;
    let latency: number | null = null;
    try {
      latency = await deps.database.ping();
    } catch (error) {
      reachable = false;
      request.log.warn({ err: error }, 'health check: database unreachable');
    }
    const body: HealthResponse = {
      status: reachable ? 'ok' : 'degraded',
      version: deps.version,
      database: { kind: deps.database.kind, reachable, latency_ms: latency },
      sandbox: deps.sandbox,
    };
    return reply.status(reachable ? 200 : 503).send(body);
  });
}
