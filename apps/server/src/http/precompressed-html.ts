import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import {
  COMPRESS_THRESHOLD_BYTES,
  PER_REQUEST_BROTLI_QUALITY,
  PER_REQUEST_GZIP_LEVEL,
} from './compression.js';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip';

/** An HTML page built once at start, with its brotli and gzip copies made then too. */
export interface PrecompressedHtml {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function precompressHtml(html: string): PrecompressedHtml {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(identity, { level: 9 }),
  };
}

/**
 * Brotli, else gzip, as the request's Accept-Encoding allows (`q=0` refuses one), with the same
 * negotiation @fastify/static applies to the build's pre-compressed files.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  return negotiate<Encoding>(acceptEncoding.toLowerCase(), ['br', 'gzip']) ?? undefined;
}

/**
 * A page built for one request (index.html with a blog post's link-preview tags), compressed as
 * the request allows with the API's fast settings, off the event loop. Small pages go out plain,
 * as small API answers do.
 */
export async function compressHtml(
  html: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Buffer; encoding?: Encoding }> {
  const body = Buffer.from(html, 'utf8');
  const encoding = chooseEncoding(acceptEncoding);
  if (!encoding || body.length < COMPRESS_THRESHOLD_BYTES) return { body };
  return { body: await compressBody(body, encoding), encoding };
}

/** `body` compressed with the API's fast per-request settings, off the event loop. */
export function compressBody(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'br') {
    const params = { [constants.BROTLI_PARAM_QUALITY]: PER_REQUEST_BROTLI_QUALITY };
    return brotliAsync(body, { params });
  }
  return gzipAsync(body, { level: PER_REQUEST_GZIP_LEVEL });
}
