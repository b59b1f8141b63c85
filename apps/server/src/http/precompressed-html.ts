import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

type Encoding = 'br' | 'gzip';

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
