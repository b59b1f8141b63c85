import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from './compression.js';
import { webAppScriptHashes } from './inline-scripts.js';
import { IMMUTABLE_CACHE_CONTROL, registerWebApp } from './web-app.js';

/** A built web app as `npm run build` leaves it: hashed assets with brotli and gzip copies. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-web-dist-'));
  mkdirSync(join(dir, 'assets'));
  const index = `<!doctype html><html><head><title>Tandem</title><script type="module" src="/assets/index-abc123.js"></script></head><body>${'<!-- padding -->'.repeat(100)}<div id="root"></div></body></html>`;
  const script = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};`;
  const files: Record<string, string> = { 'index.html': index, 'assets/index-abc123.js': script };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  }
  // Images get no compressed copy.
  writeFileSync(join(dir, 'assets', 'logo-def456.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  return dir;
}

describe('serving the web build and API responses', () => {
  let dir: string;
  let app: FastifyInstance;
  const script = '/assets/index-abc123.js';

  beforeAll(async () => {
    dir = fakeBuild();
    app = Fastify();
    await registerCompression(app);
    app.get('/api/big', async () => ({
      items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })),
    }));
    app.get('/api/small', async () => ({ latest_timestamp: '2026-11-13T20:04:09.825239Z' }));
    await registerWebApp(app, dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the brotli copy of a hashed asset, cached for a year as immutable', async () => {
    const res = await app.inject({ url: script, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('export const greeting');
  });

  it('sends gzip to a gzip-only client and the plain file to one without Accept-Encoding', async () => {
    const gz = await app.inject({ url: script, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('export const greeting');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    const plain = await app.inject({ url: script });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('export const greeting');
    expect(plain.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    // Each copy has its own validator, so a cache never mixes them up.
    expect(gz.headers.etag).toBeTruthy();
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
  });

  it('answers a repeat request with 304 by ETag, keeping the cache headers', async () => {
    const first = await app.inject({ url: script, headers: { 'accept-encoding': 'br' } });
    const again = await app.inject({
      url: script,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
  });

  it('revalidates index.html, whether asked for by name or by a client-side route', async () => {
    for (const url of ['/', '/gh/acme/webapp/agents', '/index.html']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<div id="root">');
      const etag = res.headers.etag;
      if (etag) {
        const again = await app.inject({
          url,
          headers: { 'accept-encoding': 'br, gzip', 'if-none-match': etag },
        });
        expect(again.statusCode, url).toBe(304);
      }
    }
  });

  it('sends images as they are', async () => {
    const res = await app.inject({
      url: '/assets/logo-def456.png',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
  });

  it('compresses JSON above 1 KB and leaves small answers alone', async () => {
    const big = await app.inject({ url: '/api/big', headers: { 'accept-encoding': 'gzip, br' } });
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).items).toHaveLength(200);
    const gz = await app.inject({ url: '/api/big', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const small = await app.inject({ url: '/api/small', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ latest_timestamp: '2026-11-13T20:04:09.825239Z' });
  });

  it('keeps unknown asset paths a JSON 404, never index.html', async () => {
    const res = await app.inject({ url: '/assets/gone-000000.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
  });
});

describe('pages with link-preview tags (built per request by the not-found handler)', () => {
  let dir: string;
  let app: FastifyInstance;
  const description = 'How Tandem agents read a failing check and push a fix. '.repeat(30);

  beforeAll(async () => {
    dir = fakeBuild();
    app = Fastify();
    await registerCompression(app);
    await registerWebApp(app, dir, {
      pageMeta: async (path) =>
        path === '/blog/agents-that-fix-ci' ? { title: 'Agents that fix CI', description } : undefined,
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compresses them by Accept-Encoding, and sends them plain to a client that asks for nothing', async () => {
    const url = '/blog/agents-that-fix-ci';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-type']).toMatch(/text\/html/);
    const page = brotliDecompressSync(br.rawPayload).toString();
    expect(page).toContain('<title>Agents that fix CI · Tandem</title>');
    expect(page).toContain('<meta property="og:title" content="Agents that fix CI" />');
    expect(br.rawPayload.length).toBeLessThan(page.length / 2);

    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(page);

    const plain = await app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
  });
});

describe('the landing page for visitors without a session', () => {
  const THEME_SCRIPT = "document.documentElement.dataset.theme = 'dark';";
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = fakeBuild();
    const landing = `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/landing-abc.js"></script></head><body>${'<!-- padding -->'.repeat(100)}<main>landing page</main><footer><!--tandem:footer--></footer></body></html>`;
    writeFileSync(join(dir, 'landing.html'), landing);
    writeFileSync(join(dir, 'landing.html.br'), brotliCompressSync(landing));
    app = Fastify();
    await registerCompression(app);
    await registerWebApp(app, dir, {
      landingPage: (html) =>
        html.replace('<!--tandem:footer-->', '<a href="mailto:x@example.com">Contact</a>'),
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends it filled in at / and /landing without a session cookie, compressed and revalidated', async () => {
    for (const url of ['/', '/landing', '/?landingVariant=loginrequest']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br', cookie: 'theme=dark' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers.vary, url).toMatch(/cookie/i);
      expect(res.headers.vary, url).toMatch(/accept-encoding/i);
      expect(res.headers['content-encoding'], url).toBe('br');
      const html = brotliDecompressSync(res.rawPayload).toString();
      expect(html, url).toContain('<main>landing page</main>');
      expect(html, url).toContain('<a href="mailto:x@example.com">Contact</a>');
    }
    const head = await app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('sends the single-page app to a visitor with a session cookie, and on every other path', async () => {
    const signedIn = await app.inject({
      url: '/',
      headers: { 'accept-encoding': 'br', cookie: 'theme=dark; access_token=a.b.c' },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(brotliDecompressSync(signedIn.rawPayload).toString()).toContain('<div id="root">');
    expect(signedIn.headers.vary).toMatch(/cookie/i);
    expect(signedIn.headers.vary).toMatch(/accept-encoding/i);
    const docs = await app.inject({ url: '/docs' });
    expect(docs.body).toContain('<div id="root">');
  });

  it("marks the page with the theme cookie's choice, and leaves the system's to its CSS", async () => {
    const page = async (cookie?: string) => {
      const res = await app.inject({ url: '/', headers: cookie ? { cookie } : {} });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    expect(await page('theme=dark')).toContain('<html data-theme="dark"><head>');
    expect(await page('lead=x; theme=light')).toContain('<html data-theme="light"><head>');
    // No choice, or anything but light or dark (a cookie is the visitor's to write): no mark.
    for (const cookie of [undefined, 'theme=', 'theme=blue', 'theme=dark"><script>', 'mytheme=dark']) {
      const html = await page(cookie);
      expect(html, cookie).toContain('<html><head>');
      expect(html, cookie).not.toContain('data-theme');
    }
    // Each theme's copy is compressed too.
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'br', cookie: 'theme=light' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<html data-theme="light">');
  });

  it('never serves the unfilled template by its file name', async () => {
    const res = await app.inject({ url: '/landing.html' });
    expect(res.statusCode).toBe(404);
  });

  it("allows a landing page's inline script, should it have one, by its hash in the CSP", () => {
    expect(webAppScriptHashes(dir)).toContain(
      `'sha256-${createHash('sha256').update(THEME_SCRIPT).digest('base64')}'`,
    );
  });
});
