import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { isApiPath } from './server-paths.js';

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
 * What the API's answers carry instead of the page policy: nothing in a JSON answer (or a blog image
 * the API serves) may load, run or be framed, so its CSP is `default-src 'none'` with no
 * exceptions. The headers that only mean something for an HTML page (DNS prefetch, IE's download
 * and XSS switches, Flash's cross-domain policies, origin-keyed agent clusters) are left out, as
 * OWASP's REST security guidance lists them. COOP stays, so that a page on another site that opens
 * an API URL keeps no handle to the window whatever the answer (401 or 200).
 */
const apiHeaderOptions = (hsts: boolean): FastifyHelmetOptions => ({
  // Strict-Transport-Security on the API's answers exactly when the pages carry it.
  ...(hsts ? {} : { strictTransportSecurity: false }),
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  originAgentCluster: false,
  dnsPrefetchControl: false,
  ieNoOpen: false,
  permittedCrossDomainPolicies: false,
  xssFilter: false,
});

/**
 * Helmet's security headers (CSP, nosniff, HSTS, …) on every response, computed once: the page
 * policy (`options`) on pages and assets, the API's own (apiHeaderOptions) on `/api`. The
 * @fastify/helmet hook rebuilds helmet and re-validates the whole policy on every request, a
 * noticeable share of a polled request's cost, and the page policy's 1.3 KB of headers cost bare
 * Fastify 7-10 % of its poll throughput (bench/README.md). `frameSource()` fills
 * FRAME_SOURCE_SLOT; the page headers are rebuilt only when its answer changes (once, when the
 * listening port becomes known).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
  frameSource: () => string,
): Promise<void> {
  const [template, apiHeaders] = await Promise.all([
    helmetHeaders(options),
    helmetHeaders(apiHeaderOptions(options.strictTransportSecurity !== false)),
  ]);
  const api = Object.fromEntries(apiHeaders);
  let source: string | undefined;
  let headers: Record<string, string> = {};
  app.addHook('onRequest', (request, reply, done) => {
    if (isApiPath(request.url)) {
      reply.headers(api);
      return done();
    }
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
