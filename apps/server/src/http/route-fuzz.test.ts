import { sign } from '@octokit/webhooks-methods';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { testDatabaseKinds } from '@tandem/db/testing';
import { createAgentResponseSchema, textProblem } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_WEBHOOK_SECRET, type TestApp, type TestUser } from '../testing/test-app.js';
import {
  BODY_FIELDS,
  hostileBodies,
  hostileCredentials,
  hostileJsonValues,
  hostileParamValues,
  hostileQueryValues,
  hostileWebhookPayloads,
  rawQueries,
  sample,
  seedOf,
} from '../testing/fuzz-corpus.js';

/**
 * Walks every registered route as every kind of caller with hostile input and fails on any 5xx.
 * A 5xx on bad input is a bug: the server either crashed on something it should have refused, or
 * tried to store something the database refuses. Docs: docs/security/input.md.
 */

type Role = 'anonymous' | 'member' | 'installation-admin' | 'product-admin';
const ROLES: Role[] = ['anonymous', 'member', 'installation-admin', 'product-admin'];

/**
 * Routes not fuzzed, and why. Everything else registered is, so a new route is covered the day it
 * is added.
 */
const SKIPPED: Record<string, string> = {};

/**
 * How many cases of each list a method gets. HEAD runs the GET handler, and `all` routes answer
 * every method the same way: they get a few cases each, the usual methods the full sample.
 */
const FULL_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const sizeFor = (method: string) => (full: number, light: number) =>
  FULL_METHODS.has(method) ? full : light;

/**
 * A deterministic sample of `items` for `role`. Slow cases (megabyte bodies, 200 000 levels of
 * nesting) go to one role only, the product admin, who gets past every route's access checks.
 */
function pick<T extends { heavy?: boolean }>(items: readonly T[], role: Role, count: number, seed: number) {
  const light = sample(
    items.filter((item) => !item.heavy),
    count,
    seed,
  );
  return role === 'product-admin' ? [...items.filter((item) => item.heavy), ...light] : light;
}

/** Per-case budget: a route that needs longer is hanging on its input, which is a failure too. */
const REQUEST_TIMEOUT_MS = 10_000;

/** The local code host's seeded installation of `acme`. */
const INSTALLATION = 1000;

describe.each(testDatabaseKinds())('hostile input on every route (%s)', (kind) => {
  let app: TestApp;
  /** The error behind each 5xx, by request id, so a failure names its cause. */
  const errors = new Map<string, string>();
  const users = new Map<Role, TestUser>();
  const agentOf = new Map<Role, string>();
  let eventUuid = '';
  const failures: string[] = [];
  let sent = 0;
  /** Every failure, printed in full; the assertion message keeps the first few. */
  const expectNoFailures = () => {
    if (failures.length) console.error(failures.join('\n'));
    expect(failures.length, failures.slice(0, 20).join('\n')).toBe(0);
  };

  afterAll(async () => {
    await app?.close();
  });

  beforeAll(async () => {
    // A real local code host: routes that read repositories get real answers, not a dead address.
    // The party agent on: its public routes take hostile input from anyone.
    app = await createTestApp(kind, {
      codeHost: true,
      party: {
        repo: 'acme/webapp',
        model: null,
        dailyCredits: 500,
        messagesPerMinute: 6,
        ipMessagesPerMinute: 20,
        maxMessageChars: 4000,
      },
    });
    app.server.addHook('onError', async (request, _reply, error) => {
      errors.set(
        request.id,
        String(error.stack ?? error)
          .split('\n')
          .slice(0, 4)
          .join(' | '),
      );
    });
    await app.server.ready();
    users.set(
      'installation-admin',
      await app.signIn({
        username: 'ada',
        installations: [{ id: INSTALLATION, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
      }),
    );
    users.set(
      'member',
      await app.signIn({
        username: 'bob',
        installations: [{ id: INSTALLATION, name: 'acme', role: 'member' }],
      }),
    );
    users.set(
      'product-admin',
      await app.signIn({
        username: 'root',
        admin: true,
        installations: [{ id: INSTALLATION, name: 'acme', role: 'member' }],
      }),
    );
    for (const role of ['installation-admin', 'member', 'product-admin'] as const) {
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/agents/create-agent/acme/webapp',
        headers: headersFor(role),
        payload: { body: `Agent of ${role}`, is_supervisor: role === 'product-admin' },
      });
      const created = createAgentResponseSchema.parse(res.json());
      agentOf.set(role, created.agent_id);
      eventUuid ||= created.event_uuid;
    }
    agentOf.set('anonymous', agentOf.get('installation-admin')!);
  });

  function headersFor(role: Role): Record<string, string> {
    const user = users.get(role);
    return user ? { authorization: `Bearer ${user.token}` } : {};
  }

  /** Routes that may revoke the caller's session (logout, sign-in with `revoked=true`). */
  const SESSION_ENDING = new Set(['/api/auth/logout', '/auth/github']);

  /** A session-ending route gets a session of its own for every request. */
  async function authFor(role: Role, routeUrl: string): Promise<Record<string, string>> {
    const user = users.get(role);
    if (!user || !SESSION_ENDING.has(routeUrl)) return headersFor(role);
    const { token } = await app.sessions.create(user.id);
    return { authorization: `Bearer ${token}` };
  }

  /** Sends one case; records a failure for a 5xx, a thrown error or a hang. */
  async function send(label: string, options: InjectOptions): Promise<number | undefined> {
    sent++;
    const describeInput = () => {
      const payload = options.payload;
      const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? '<bytes>' : '';
      const headers = JSON.stringify({ ...options.headers, authorization: undefined });
      return `${text.slice(0, 200)}${text.length > 200 ? `… (${text.length} chars)` : ''} headers=${headers}`;
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const res = await Promise.race([
        app.server.inject(options),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)),
            REQUEST_TIMEOUT_MS,
          );
        }),
      ]);
      if (res.statusCode >= 500) {
        failures.push(
          `${label}: ${options.method} ${String(options.url).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}\n    input: ${describeInput()}\n    error: ${errors.get(String(res.headers['x-request-id'])) ?? '?'}`,
        );
      }
      return res.statusCode;
    } catch (error) {
      failures.push(
        `${label}: ${options.method} ${String(options.url).slice(0, 300)} threw ${String(error)}\n    input: ${describeInput()}`,
      );
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  const paramValue = (name: string, role: Role): string =>
    ({
      repo_owner: 'acme',
      repo_name: 'webapp',
      action_uuid: eventUuid,
      n: '1',
      post_id: 'welcome',
      asset_id: 'logo.png',
      mode: 'light',
      subdomain: 'abc',
      '*': 'index.html',
    })[name] ?? agentOf.get(role)!;

  function fillPath(url: string, role: Role, override?: { name: string; value: string }): string {
    return url.replace(/:([A-Za-z_]+)|\*/g, (match, name: string | undefined) => {
      const key = name ?? '*';
      return override?.name === key ? override.value : encodeURIComponent(paramValue(key, role));
    });
  }

  const baseQuery = (role: Role): Record<string, string> => ({
    trajectory_id: agentOf.get(role)!,
    page: '1',
    rows_per_page: '10',
    orderBy: 'created_at',
    admin: 'true',
    search: 'creator:me',
    repository_name: 'acme/webapp',
    before: '2030-01-01T00:00:00Z',
    source_id: '00000000-0000-4000-8000-000000000000',
    from: 'abc1234',
    to: 'def5678',
    path: 'README.md',
    ref: 'main',
    log_id: '00000000-0000-4000-8000-000000000000',
    party: 'true',
    return_uri: '/agents',
    popup: 'false',
    lead_id: 'lead-1',
    revoked: 'true',
    code: 'abc',
    state: 'def',
  });

  const queryString = (query: Record<string, string | string[]>) =>
    Object.entries(query)
      .flatMap(([k, v]) => [v].flat().map((one) => `${k}=${one}`))
      .join('&');

  /** A body every route accepts in shape: extra fields are ignored by the schemas. */
  const baseBody = (role: Role): Record<string, unknown> => ({
    ...BODY_FIELDS,
    trajectory_id: agentOf.get(role)!,
  });

  /** Which query keys and body fields a route reads: the ones its 422 names when all are wrong. */
  async function discover(method: string, url: string, role: Role) {
    const wrongQuery = Object.fromEntries(Object.keys(baseQuery(role)).map((k) => [k, ['x', 'y']]));
    const query = await app.server.inject({
      method: method as 'GET',
      url: `${fillPath(url, role)}?${queryString(wrongQuery)}`,
      headers: await authFor(role, url),
    });
    const locs = (res: { statusCode: number; json(): unknown }, part: string) => {
      if (res.statusCode !== 422 || method === 'HEAD') return [];
      const detail = (res.json() as { detail?: unknown }).detail;
      if (!Array.isArray(detail)) return [];
      return detail
        .map((d: { loc?: unknown[] }) => d.loc ?? [])
        .filter((loc) => loc[0] === part && typeof loc[1] === 'string')
        .map((loc) => loc[1] as string);
    };
    let bodyFields: string[] = [];
    if (!['GET', 'HEAD'].includes(method)) {
      const wrongBody = Object.fromEntries(Object.keys(BODY_FIELDS).map((k) => [k, { probe: [1] }]));
      const body = await app.server.inject({
        method: method as 'POST',
        url: `${fillPath(url, role)}?${queryString(baseQuery(role))}`,
        headers: await authFor(role, url),
        payload: { ...wrongBody, trajectory_id: { probe: [1] } },
      });
      bodyFields = locs(body, 'body');
    }
    return { queryKeys: [...new Set(locs(query, 'query'))], bodyFields: [...new Set(bodyFields)] };
  }

  const fuzzedRoutes = () =>
    app.routes
      .filter((r) => !SKIPPED[`${r.method} ${r.url}`])
      .filter((r) => r.url !== '/api/github/webhooks')
      // Wildcard catch-alls (the SPA fallback, static files) answer pages, not input.
      .filter((r) => !(r.url === '*' || r.url === '/*'))
      .sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));

  it('covers every registered route', () => {
    const routes = fuzzedRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const covered = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const route of app.routes) {
      const key = `${route.method} ${route.url}`;
      const accounted =
        covered.has(key) || SKIPPED[key] || route.url === '/api/github/webhooks' || route.url.endsWith('*');
      expect(accounted, key).toBeTruthy();
    }
  });

  it('answers hostile paths and query strings without a 5xx', async () => {
    for (const route of fuzzedRoutes()) {
      const { queryKeys } = await discover(route.method, route.url, 'product-admin');
      for (const role of ROLES) {
        const seed = seedOf(`${route.method} ${route.url} ${role}`);
        const method = route.method as 'GET';
        const base = baseQuery(role);
        const label = `${role} path`;
        const size = sizeFor(route.method);
        // Each path parameter with each hostile value (sampled), the rest valid.
        for (const name of [...route.url.matchAll(/:([A-Za-z_]+)|\*/g)].map((m) => m[1] ?? '*')) {
          for (const value of sample(hostileParamValues, size(4, 1), seed + name.length)) {
            await send(label, {
              method,
              url: `${fillPath(route.url, role, { name, value })}?${queryString(base)}`,
              headers: await authFor(role, route.url),
            });
          }
        }
        // Credentials that are not ours, on a request that is otherwise fine.
        if (role === 'anonymous') {
          for (const headers of sample(hostileCredentials, size(3, 1), seed)) {
            await send('bad credentials', {
              method,
              url: `${fillPath(route.url, 'installation-admin')}?${queryString(baseQuery('installation-admin'))}`,
              headers,
            });
          }
        }
        // Whole query strings: malformed encodings, duplicated and nested keys.
        for (const raw of sample(rawQueries, size(4, 1), seed)) {
          await send(`${role} raw query`, {
            method,
            url: `${fillPath(route.url, role)}?${raw}`,
            headers: await authFor(role, route.url),
          });
        }
        // Each key the route reads with each hostile value, the others valid.
        const keys = queryKeys.length ? queryKeys : [];
        for (const key of keys) {
          for (const value of sample(
            hostileQueryValues,
            role === 'anonymous' ? size(3, 1) : size(8, 1),
            seed + key.length,
          )) {
            await send(`${role} query ${key}`, {
              method,
              url: `${fillPath(route.url, role)}?${queryString({ ...base, [key]: value })}`,
              headers: await authFor(role, route.url),
            });
          }
        }
      }
    }
    console.info(`route fuzz (${kind}): ${sent} requests so far`);
    expectNoFailures();
  }, 300_000);

  it('answers hostile bodies without a 5xx', async () => {
    const writes = fuzzedRoutes().filter((r) => !['GET', 'HEAD'].includes(r.method));
    for (const route of writes) {
      const { bodyFields } = await discover(route.method, route.url, 'product-admin');
      for (const role of ROLES) {
        const seed = seedOf(`${route.method} ${route.url} ${role} body`);
        const headers = () => authFor(role, route.url);
        const url = `${fillPath(route.url, role)}?${queryString(baseQuery(role))}`;
        const method = route.method as 'POST';
        const size = sizeFor(route.method);
        for (const body of pick(hostileBodies, role, role === 'anonymous' ? size(5, 1) : size(8, 2), seed)) {
          await send(`${role} body ${body.name}`, {
            method,
            url,
            headers: { ...(await headers()), ...body.headers },
            payload: body.payload,
          });
        }
        for (const field of bodyFields) {
          const values = pick(
            hostileJsonValues,
            role,
            role === 'anonymous' ? size(3, 1) : size(8, 1),
            seed + field.length,
          );
          for (const value of values) {
            const base = baseBody(role);
            const payload = JSON.stringify({ ...base, [field]: '__RAW__' }).replace('"__RAW__"', value.raw);
            await send(`${role} field ${field}=${value.name}`, {
              method,
              url,
              headers: { ...(await headers()), 'content-type': 'application/json' },
              payload,
            });
          }
        }
      }
    }
    console.info(`route fuzz (${kind}): ${sent} requests so far`);
    expectNoFailures();
  }, 300_000);

  it('answers signed but malformed webhook deliveries without a 5xx', async () => {
    let n = 0;
    for (const { event, payload } of hostileWebhookPayloads) {
      await send(`webhook ${event}`, {
        method: 'POST',
        url: '/api/github/webhooks',
        headers: {
          'content-type': 'application/json',
          'x-github-event': event,
          'x-github-delivery': `fuzz-${n++}`,
          'x-hub-signature-256': await sign(TEST_WEBHOOK_SECRET, payload),
        },
        payload,
      });
    }
    // Answered at once; the queue applies them after (a handler's throw is retried, never a 5xx).
    await app.webhooks.idle();
    expectNoFailures();
  }, 120_000);

  it('stored nothing the database or a reader would choke on', async () => {
    const { db } = app.database;
    // Postgres text refuses NUL outright; lone surrogates arrive as U+FFFD. Check what was kept.
    const texts = await db.execute(sql`
      select 'agents' as t, title as v from agents
      union all select 'items', data::text from conversation_items
      union all select 'demo', message from demo_requests
      union all select 'leads', data::text from leads
      union all select 'events', data::text from session_events`);
    const rows = (texts as unknown as { rows: { t: string; v: string | null }[] }).rows;
    for (const row of rows) {
      expect(textProblem(row.v ?? ''), row.t).toBeNull();
      expect(row.v ?? '', row.t).not.toContain('\\u0000');
    }
    // And every reader still answers for every agent the fuzz touched.
    for (const role of ['installation-admin', 'member', 'product-admin'] as const) {
      const id = agentOf.get(role)!;
      for (const url of [
        `/api/agent/metadata?trajectory_id=${id}`,
        `/api/agent/conversation?trajectory_id=${id}`,
        '/api/agents?admin=true&rows_per_page=100',
        '/api/blog',
        '/api/admin/demo-requests?rows_per_page=100',
      ]) {
        const res = await app.server.inject({ url, headers: headersFor('product-admin') });
        expect(res.statusCode, url).toBe(200);
      }
    }
  });
});
