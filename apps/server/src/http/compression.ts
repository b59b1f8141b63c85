import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Responses smaller than this go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses the API's JSON and the HTML built per request (a blog page's link-preview tags) by
 * Accept-Encoding. The web build's files arrive here already compressed (http/web-app.ts serves the
 * copies apps/web/build/precompress.ts wrote), and a body with a Content-Encoding is left alone.
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
    // Fast settings: these bodies are compressed on every request, on the event loop's CPU.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
