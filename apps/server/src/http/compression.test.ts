import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerCompression } from './compression.js';

async function appWithRoutes() {
  const app = Fastify();
  await registerCompression(app);
  const big = { text: 'x'.repeat(4096) };
  app.get('/big', async () => big);
  app.get('/poll', { compress: false }, async () => big);
  app.post('/echo', async (request) => request.body);
  await app.ready();
  return app;
}

/** The hooks Fastify runs for one route, by name, as `printRoutes` lists them. */
function hooksOf(app: Awaited<ReturnType<typeof appWithRoutes>>, line: string): string {
  const tree = app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
  const start = tree.findIndex((l) => l.includes(line));
  const end = tree.findIndex((l, i) => i > start && /\/\w+ \(/.test(l));
  return tree.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

describe('compression', () => {
  it('compresses large answers and inflates compressed request bodies', async () => {
    const app = await appWithRoutes();
    const res = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).text).toHaveLength(4096);

    const echoed = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ hello: 'world' })),
    });
    expect(echoed.json()).toEqual({ hello: 'world' });
    await app.close();
  });

  it('adds no decompression hook to GET routes, and none at all where compression is off', async () => {
    const app = await appWithRoutes();
    // Polls run these hooks thousands of times a second; a GET has no body to inflate.
    expect(hooksOf(app, '/big (GET)')).not.toContain('preParsing');
    expect(hooksOf(app, '/echo (POST)')).toContain('preParsing');
    expect(hooksOf(app, '/poll (GET)')).toBe('');
    const res = await app.inject({ url: '/poll', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    await app.close();
  });
});
