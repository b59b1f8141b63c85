import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

/** Brotli, else gzip, as the request's Accept-Encoding allows (`q=0` refuses one). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}
