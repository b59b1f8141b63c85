import { testDatabaseKinds } from '@tandem/db/testing';
import { INSTALLATION_HEADER } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { PARTY_TEST_SETTINGS } from '../testing/party.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * Routes for product admins only that live outside /api/admin. Every /api/admin route is found from
 * the server's own route table, so one added tomorrow is covered the day it lands.
 */
const OTHER_ADMIN_ROUTES = ['POST /api/billing/admin/gift-credits', 'POST /api/party/new'];

/** A stand-in for each path parameter: well formed, so the answer is about who asks, not the input. */
const PARAMS: Record<string, string> = {
  installation_id: '71',
  task_id: '00000000-0000-4000-8000-000000000001',
  user_id: '00000000-0000-4000-8000-000000000002',
  model_name: 'sonnet-4-5',
};
const fill = (url: string) =>
  url.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = PARAMS[name];
    if (!value) throw new Error(`no stand-in for :${name} in ${url}: add one to PARAMS`);
    return value;
  });

/** Platform §4: the admin area and its calls are for product admins; everyone else is refused. */
describe.each(testDatabaseKinds())('product-admin routes on %s', (kind) => {
  const testApp = useTestApp(kind, { party: PARTY_TEST_SETTINGS });
  let app: TestApp;
  let member: TestUser;
  let owner: TestUser;

  beforeAll(async () => {
    app = testApp();
    owner = await app.signIn({
      username: 'olga',
      installations: [{ id: 71, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    member = await app.signIn({
      username: 'mel',
      installations: [{ id: 71, name: 'acme', role: 'member', repos: ['acme/webapp'] }],
    });
  });

  const adminRoutes = () => {
    const found = app.routes
      .filter((r) => r.url.startsWith('/api/admin/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.url}`);
    return [...new Set([...found, ...OTHER_ADMIN_ROUTES])].sort();
  };

  it('finds the admin area’s routes', () => {
    const routes = adminRoutes();
    // The calls of platform §7 Admin, as this server names them.
    for (const route of [
      'GET /api/admin/admin_dashboard',
      'GET /api/admin/anthropic-usage/:model_name',
      'POST /api/admin/ban-installation',
      'GET /api/admin/installation/:installation_id/banned',
      'GET /api/admin/repositories',
      'GET /api/admin/users',
      'GET /api/admin/installations',
      'GET /api/admin/tasks',
      'GET /api/admin/tasks/party',
      'POST /api/admin/tasks/restart',
      'POST /api/admin/tasks/:task_id/fail',
      'POST /api/admin/tasks/:task_id/stop',
      'GET /api/admin/user-sessions',
      'GET /api/admin/user/:user_id/lead-info',
    ])
      expect(routes).toContain(route);
  });

  it('answers 401 without a session and 403 to members and installation admins', async () => {
    const answers: string[] = [];
    for (const route of adminRoutes()) {
      const [method, url] = route.split(' ') as ['GET' | 'POST', string];
      const ask = (user?: TestUser) =>
        app.server.inject({
          method,
          url: fill(url),
          headers: {
            ...(user ? { authorization: `Bearer ${user.token}` } : {}),
            [INSTALLATION_HEADER]: '71',
          },
          ...(method === 'POST' ? { payload: {} } : {}),
        });
      answers.push(`${route} anonymous ${(await ask()).statusCode}`);
      answers.push(`${route} member ${(await ask(member)).statusCode}`);
      answers.push(`${route} installation-admin ${(await ask(owner)).statusCode}`);
    }
    const expected = adminRoutes().flatMap((route) => [
      `${route} anonymous 401`,
      `${route} member 403`,
      `${route} installation-admin 403`,
    ]);
    expect(answers).toEqual(expected);
  });
});
