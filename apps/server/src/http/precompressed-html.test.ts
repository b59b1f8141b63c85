import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, precompressHtml } from './precompressed-html.js';

describe('precompressed HTML', () => {
  it('keeps brotli and gzip copies of the same page', () => {
    const html = `<p>${'landing '.repeat(500)}</p>`;
    const page = precompressHtml(html);
    expect(page.identity.toString()).toBe(html);
    expect(brotliDecompressSync(page.br).toString()).toBe(html);
    expect(gunzipSync(page.gzip).toString()).toBe(html);
    expect(page.br.length).toBeLessThan(html.length / 10);
  });

  it('prefers brotli, then gzip, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
