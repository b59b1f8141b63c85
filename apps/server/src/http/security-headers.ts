import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/** Stands for the one CSP source known only at run time (the preview origins, after listening). */
export const FRAME_SOURCE_SLOT = 'tandem-frame-source-slot';

/** Per-request headers that are not security headers. */
const NOT_SECURITY = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/** The headers helmet sets for `options`, learnt once by letting it answer one request. */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(fastifyHelmet, options);
  probe.get('/', async () => '');
  try {
    const res = await probe.inject('/');
    return Object.entries(res.headers)
      .filter(([name]) => !NOT_SECURITY.has(name))
      .map(([name, value]) => [name, String(value)]);
  } finally {
    await probe.close();
  }
}

/**
 * Helmet's security headers (CSP, nosniff, HSTS, …) on every response, computed once. The
 * @fastify/helmet hook rebuilds helmet and re-validates the whole policy on every request, a
 * noticeable share of a polled request's cost. `frameSource()` fills FRAME_SOURCE_SLOT; the
 * headers are rebuilt only when its answer changes (once, when the listening port becomes known).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
  frameSource: () => string,
): Promise<void> {
  const template = await helmetHeaders(options);
  let source: string | undefined;
  let headers: Record<string, string> = {};
  app.addHook('onRequest', (_request, reply, done) => {
    const current = frameSource();
    if (current !== source) {
      source = current;
      headers = Object.fromEntries(
        template.map(([name, value]) => [name, value.replaceAll(FRAME_SOURCE_SLOT, current)]),
      );
    }
    reply.headers(headers);
    done();
  });
}
