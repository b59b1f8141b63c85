import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCompression } from './compression.js';
import { PolledJson, sendPolledJson } from './polled-json.js';

const large = new PolledJson(
  JSON.stringify({ items: Array.from({ length: 80 }, (_, i) => `item number ${i}`) }),
);
const small = new PolledJson(JSON.stringify({ items: ['one'] }));

/** The plugin registered as the app registers it, and routes that turn it off as agents.ts does. */
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  await registerCompression(app);
  app.get('/large', { compress: false }, async (request, reply) => sendPolledJson(request, reply, large));
  app.get('/small', { compress: false }, async (request, reply) => sendPolledJson(request, reply, small));
  await app.ready();
});
afterAll(() => app.close());

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('sendPolledJson', () => {
  it('sends the JSON as it is without Accept-Encoding', async () => {
    expect(large.body.length).toBeGreaterThan(1024);
    const res = await get('/large');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.rawPayload.equals(large.body)).toBe(true);
  });

  it('compresses brotli before gzip, as the header allows, once per encoding', async () => {
    const br = await get('/large', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(large.body)).toBe(true);
    const gzip = await get('/large', 'br;q=0, gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(large.body)).toBe(true);
    // Made on the first poll that asked, then shared: the same copy every time.
    expect(large.compressed('br')).toBe(large.compressed('br'));
    expect(await large.compressed('gzip')).toBe(await large.compressed('gzip'));
    // One compression only: the plugin, turned off on the route, did not compress it again.
    expect((await get('/large', 'br')).rawPayload.equals(await large.compressed('br'))).toBe(true);
  });

  it('sends a small answer as it is, whatever the client accepts', async () => {
    const res = await get('/small', 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.json()).toEqual({ items: ['one'] });
  });

  it('sends it plain when the client refuses every encoding it has', async () => {
    const res = await get('/large', 'br;q=0, gzip;q=0, identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.equals(large.body)).toBe(true);
  });
});
