import { SESSION_COOKIE } from '@tandem/shared';
import { demoRequests, leads } from '@tandem/db';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../config/rate-limits.js';
import { useTestApp } from '../testing/test-app.js';

const demo = { email: 'cto@example.com', message: 'Show us' };

describe('rate limits on unauthenticated writes', () => {
  const testApp = useTestApp('pglite', {
    edge: { rateLimits: { ...DEFAULT_RATE_LIMITS, demoRequest: 3, trackVisit: 2 } },
  });

  it('answers the write past the limit with 429, a JSON body and retry-after, and stores nothing', async () => {
    const app = testApp();
    const send = () =>
      app.server.inject({
        method: 'POST',
        url: '/api/demo/request',
        payload: demo,
        remoteAddress: '203.0.113.7',
      });
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(200);
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.json()).toMatchObject({
      code: 'rate_limited',
      detail: expect.stringMatching(/^Too many requests/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await app.database.db.select().from(demoRequests)).toHaveLength(3);

    // Another client has a bucket of its own.
    const other = await app.server.inject({
      method: 'POST',
      url: '/api/demo/request',
      payload: demo,
      remoteAddress: '203.0.113.8',
    });
    expect(other.statusCode).toBe(200);
  });

  it('limits track-visit per client', async () => {
    const app = testApp();
    const visit = () =>
      app.server.inject({
        method: 'POST',
        url: '/api/track-visit',
        payload: {},
        remoteAddress: '198.51.100.1',
      });
    expect((await visit()).statusCode).toBe(200);
    expect((await visit()).statusCode).toBe(200);
    expect((await visit()).statusCode).toBe(429);
    expect(await app.database.db.select().from(leads)).toHaveLength(2);
  });

  it('never limits signed-in API polling', async () => {
    const app = testApp();
    const user = await app.signIn({ username: 'poller' });
    for (let i = 0; i < 30; i++) {
      const res = await app.server.inject({
        url: '/api/users/me',
        cookies: { [SESSION_COOKIE]: user.token },
        remoteAddress: '203.0.113.7',
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refuses huge public bodies with 413 before parsing or storing them', async () => {
    const app = testApp();
    const huge = 'x'.repeat(100 * 1024);
    const cases = [
      { url: '/api/demo/request', payload: { ...demo, message: huge } },
      { url: '/api/track-visit', payload: { lead_data: { utm_source: huge } } },
      {
        url: '/api/track-session',
        payload: { events: JSON.stringify([{ type: 'end', timestamp: 1, data: { huge } }]) },
      },
    ];
    for (const { url, payload } of cases) {
      const res = await app.server.inject({ method: 'POST', url, payload, remoteAddress: '192.0.2.99' });
      expect(res.statusCode, url).toBe(413);
      expect(res.json()).toMatchObject({ code: 'payload_too_large' });
    }
    // The same batch sent by beacon, as text.
    const beacon = await app.server.inject({
      method: 'POST',
      url: '/api/track-session',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify(cases[2]!.payload),
      remoteAddress: '192.0.2.99',
    });
    expect(beacon.statusCode).toBe(413);
    // A body of many small fields is as big a blob as one long field.
    const wide = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, 'value']));
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/track-visit',
      payload: { lead_data: wide },
      remoteAddress: '192.0.2.98',
    });
    expect(res.statusCode).toBe(413);
  });
});

describe('rate limits behind proxies', () => {
  const untrusted = useTestApp('pglite', {
    edge: { rateLimits: { ...DEFAULT_RATE_LIMITS, demoRequest: 2 } },
  });
  const trusted = useTestApp('pglite', {
    edge: {
      rateLimits: { ...DEFAULT_RATE_LIMITS, demoRequest: 2 },
      trustedProxies: { kind: 'addresses', ranges: ['10.0.0.0/8'] },
    },
  });

  const sendAs = (app: ReturnType<typeof untrusted>, forwardedFor: string) =>
    app.server.inject({
      method: 'POST',
      url: '/api/demo/request',
      payload: demo,
      remoteAddress: '10.1.2.3',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: forging it gives no new bucket', async () => {
    const app = untrusted();
    expect((await sendAs(app, '1.1.1.1')).statusCode).toBe(200);
    expect((await sendAs(app, '2.2.2.2')).statusCode).toBe(200);
    expect((await sendAs(app, '3.3.3.3')).statusCode).toBe(429);
  });

  it('uses the client address a trusted proxy reports', async () => {
    const app = trusted();
    expect((await sendAs(app, '1.1.1.1')).statusCode).toBe(200);
    expect((await sendAs(app, '1.1.1.1')).statusCode).toBe(200);
    expect((await sendAs(app, '1.1.1.1')).statusCode).toBe(429);
    // The proxy's other clients are not punished for one client's requests.
    expect((await sendAs(app, '2.2.2.2')).statusCode).toBe(200);
  });
});
