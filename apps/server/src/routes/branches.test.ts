import { repositoryBranchesSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

describe('GET /api/repositories/{owner}/{repo}/branches', () => {
  const testApp = useTestApp('pglite', { codeHost: true });
  let app: TestApp;
  let bob: TestUser;
  let eve: TestUser;

  beforeAll(async () => {
    app = testApp();
    bob = await app.signIn({
      username: 'bob',
      installations: [{ id: 1000, name: 'acme', role: 'member', repos: ['acme/webapp'] }],
    });
    eve = await app.signIn({ username: 'eve', installations: [] });
  });

  it("lists the repository's branches for a member of its installation", async () => {
    const res = await app.server.inject({ url: '/api/repositories/acme/WEBAPP/branches', headers: as(bob) });
    expect(res.statusCode).toBe(200);
    const body = repositoryBranchesSchema.parse(res.json());
    expect(body.default_branch).toBe('main');
    expect(body.branches.map((b) => b.name)).toContain('main');
  });

  it('answers 404 to anyone else and 401 without a session, never listing', async () => {
    const outsider = await app.server.inject({
      url: '/api/repositories/acme/webapp/branches',
      headers: as(eve),
    });
    expect(outsider.statusCode).toBe(404);
    const missing = await app.server.inject({
      url: '/api/repositories/acme/nope/branches',
      headers: as(bob),
    });
    expect(missing.statusCode).toBe(404);
    const anonymous = await app.server.inject({ url: '/api/repositories/acme/webapp/branches' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('branches when the code host cannot be reached', () => {
  // No code host: the gateway points at a closed port.
  const testApp = useTestApp('pglite');
  it("answers 502 with the spec's text", async () => {
    const app = testApp();
    const bob = await app.signIn({
      username: 'bob',
      installations: [{ id: 1000, name: 'acme', role: 'member', repos: ['acme/webapp'] }],
    });
    const res = await app.server.inject({ url: '/api/repositories/acme/webapp/branches', headers: as(bob) });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ detail: 'Error fetching branch data' });
  });
});
