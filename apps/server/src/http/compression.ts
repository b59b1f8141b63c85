import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Responses smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** Fast settings: these bodies are compressed on every request, on the event loop's CPU. */
export const PER_REQUEST_BROTLI_QUALITY = 4;
export const PER_REQUEST_GZIP_LEVEL = 6;

/**
 * Compresses the API's JSON by Accept-Encoding. The web build's files arrive here already
 * compressed (http/web-app.ts serves the copies apps/web/build/precompress.ts wrote), and a body
 * with a Content-Encoding is left alone. The plugin hooks onto routes, so the not-found handler,
 * which sends the web app's pages, gets none of this: web-app.ts compresses what it builds there
 * itself (precompressed-html.ts).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // A GET or HEAD carries no body to inflate: without this, @fastify/compress adds its
  // decompression hook to every route, a measurable share of a poll's cost (issue 15).
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.decompress === undefined && methods.every((m) => m === 'GET' || m === 'HEAD')) {
      route.decompress = false;
    }
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: PER_REQUEST_BROTLI_QUALITY } },
    zlibOptions: { level: PER_REQUEST_GZIP_LEVEL },
  });
}
