import { createHash } from 'node:crypto';
import { testDatabaseKinds } from '@tandem/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseRequest } from './http/validation.js';
import { createTestApp, TEST_INDEX_HTML, type TestApp } from './testing/test-app.js';

describe.each(testDatabaseKinds())('server on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
    // Test-only routes exercising the shared validation and error paths.
    app.server.post('/api/__test/echo', async (request) =>
      parseRequest(z.object({ name: z.string().min(2), count: z.number().int() }), request.body, 'body'),
    );
    app.server.get('/api/__test/boom', async () => {
      throw new Error('kaboom');
    });
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('GET /api/health reports version and database kind', async () => {
    const res = await app.server.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: { kind, reachable: true },
    });
  });

  it('sets security headers and a request id', async () => {
    const res = await app.server.inject('/docs');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // index.html's inline theme script is allowed by its hash, and inline scripts in general are not.
    const scriptSrc = /script-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
    const hash = createHash('sha256')
      .update("document.documentElement.dataset.theme = 'light';")
      .digest('base64');
    expect(scriptSrc.split(' ')).toEqual(expect.arrayContaining(["'self'", `'sha256-${hash}'`]));
    // So is landing.html's.
    const landingHash = createHash('sha256')
      .update("document.documentElement.dataset.theme = 'dark';")
      .digest('base64');
    expect(scriptSrc.split(' ')).toContain(`'sha256-${landingHash}'`);
    expect(scriptSrc).not.toContain('unsafe-inline');
    // The code host's avatars (plain http for the local one) may be shown.
    const imgSrc = /img-src ([^;]*)/.exec(String(res.headers['content-security-policy']))?.[1] ?? '';
    expect(imgSrc.split(' ')).toContain('http://127.0.0.1:9'); // the test app's code host address
    expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    // No origin-keyed process hint: it costs a visitor from another site a second renderer process.
    expect(res.headers['origin-agent-cluster']).toBeUndefined();
    const landing = await app.server.inject('/');
    expect(landing.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(landing.headers['origin-agent-cluster']).toBeUndefined();
  });

  it("gives the API's answers a policy under which nothing loads, runs or is framed", async () => {
    const answers = [
      await app.server.inject('/api/health'),
      await app.server.inject('/api/does-not-exist'),
      await app.server.inject('/api/users/me'),
      await app.server.inject('/api?x=1'),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 404, 401, 404]);
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      // Served over plain http (no https public URL): RFC 6797 forbids HSTS there.
      expect(res.headers['strict-transport-security']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/[0-9a-f-]{36}/);
      // What only an HTML page reads is not sent.
      for (const name of [
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-xss-protection',
      ]) {
        expect(res.headers[name], name).toBeUndefined();
      }
    }
    // A page whose path merely starts with "api" is a page.
    const page = await app.server.inject('/apis-overview');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('answers unknown API paths with JSON 404 and pages with index.html', async () => {
    const api = await app.server.inject('/api/does-not-exist');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not Found', code: 'not_found' });

    const page = await app.server.inject('/some/client/route?x=1');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toBe(TEST_INDEX_HTML);

    expect((await app.server.inject('/assets/missing-chunk.js')).statusCode).toBe(404);
    expect((await app.server.inject({ method: 'POST', url: '/not-api' })).statusCode).toBe(404);
  });

  it('sends the landing page to visitors without a session cookie, the SPA to the others', async () => {
    for (const url of ['/', '/landing?landingVariant=twobutton']) {
      const visitor = await app.server.inject(url);
      expect(visitor.statusCode, url).toBe(200);
      expect(visitor.headers['content-type'], url).toContain('text/html');
      expect(visitor.headers['cache-control'], url).toBe('no-cache');
      expect(visitor.body, url).toContain('landing');
      // Filled with the deployment's links, so nothing waits for /api/config.
      expect(visitor.body, url).toMatch(/<a href="mailto:[^"]+">Contact<\/a>/);
      expect(visitor.body, url).not.toContain('<!--tandem:');
      expect(visitor.headers['content-security-policy'], url).toContain("default-src 'self'");

      const signedIn = await app.server.inject({ url, cookies: { access_token: 'some.session.token' } });
      expect(signedIn.statusCode, url).toBe(200);
      expect(signedIn.body, url).toBe(TEST_INDEX_HTML);
    }
    const head = await app.server.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
    expect(head.body).toBe('');
    // Other pages are the SPA's for everyone.
    expect((await app.server.inject('/docs')).body).toBe(TEST_INDEX_HTML);
  });

  it('answers a path with malformed percent-encoding with 400 in the API error shape', async () => {
    for (const url of ['/api/agent/%E0%A4%A', '/api/users/%', '/gh/acme/%ZZ']) {
      const res = await app.server.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual({ detail: expect.stringMatching(/Malformed URL/), code: 'bad_request' });
    }
  });

  it('validates bodies with the shared schemas and answers 422 FastAPI-style', async () => {
    const res = await app.server.inject({ method: 'POST', url: '/api/__test/echo', payload: { name: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      detail: [
        { loc: ['body', 'name'], msg: expect.any(String), type: 'too_small' },
        { loc: ['body', 'count'], msg: expect.any(String), type: 'missing' },
      ],
    });
    const ok = await app.server.inject({
      method: 'POST',
      url: '/api/__test/echo',
      payload: { name: 'xy', count: 2 },
    });
    expect(ok.json()).toEqual({ name: 'xy', count: 2 });
  });

  it('never answers a malformed body on any route with a 500', async () => {
    // Webhooks authenticate the raw bytes first: an unsigned malformed body is a 401 there.
    const signedRawBody = new Set(['/api/github/webhooks', '/api/billing/webhook']);
    const writes = app.routes.filter(
      (r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && !signedRawBody.has(r.url),
    );
    expect(writes.length).toBeGreaterThan(0);
    for (const route of writes) {
      const url = route.url.replace(/:[^/]+/g, 'x');
      const broken = await app.server.inject({
        method: route.method as 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"oops":',
      });
      expect(broken.statusCode, `${route.method} ${route.url}`).toBe(422);
      expect(broken.json().detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });

      const wrongType = await app.server.inject({
        method: route.method as 'POST',
        url,
        headers: { 'content-type': 'text/csv' },
        payload: 'a,b',
      });
      expect(wrongType.statusCode, `${route.method} ${route.url}`).toBe(422);
    }
    for (const url of signedRawBody) {
      const unsigned = await app.server.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"oops":',
      });
      expect(unsigned.statusCode, url).toBe(401);
    }
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/__test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024), count: 1 }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('hides unexpected errors behind a 500 with a request id', async () => {
    const res = await app.server.inject('/api/__test/boom');
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({
      detail: 'Internal Server Error',
      code: 'internal',
      request_id: expect.any(String),
    });
    expect(body.request_id).toBe(res.headers['x-request-id']);
  });
});

describe('a server whose public URL is https', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite', { edge: { publicUrl: 'https://tandem.example.com' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends Strict-Transport-Security on pages and API answers alike', async () => {
    for (const url of ['/', '/docs', '/api/health', '/api/users/me', '/api/does-not-exist']) {
      const res = await app.server.inject(url);
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
    // Everything else is as over http.
    expect((await app.server.inject('/api/health')).headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
  });
});
