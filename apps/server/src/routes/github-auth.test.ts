import { eq } from 'drizzle-orm';
import { leads, users } from '@tandem/db';
import { SESSION_COOKIE, userSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_COOKIE } from '../auth/lead-cookie.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/** Follows the product → code host → product round trip the way a browser would. */
async function signInThroughCodeHost(
  app: TestApp,
  login: string,
  returnUri = '/agents',
  extraQuery = '',
  cookies: Record<string, string> = {},
) {
  const start = await app.server.inject({
    url: `/auth/github?return_uri=${encodeURIComponent(returnUri)}${extraQuery}`,
    cookies,
  });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  const oauthCookie = start.cookies.find((c) => c.name === 'tandem_oauth')!;
  const chosen = await fetch(`${app.codeHost!.url}/login/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: authorize.searchParams.get('client_id')!,
      redirect_uri: authorize.searchParams.get('redirect_uri')!,
      state: authorize.searchParams.get('state')!,
      login,
    }),
  });
  const callback = new URL(chosen.headers.get('location')!);
  const done = await app.server.inject({
    url: callback.pathname + callback.search,
    cookies: { tandem_oauth: oauthCookie.value },
  });
  return { start, authorize, callback, done, oauthCookie };
}

async function me(app: TestApp, token: string) {
  const res = await app.server.inject({ url: '/api/users/me', cookies: { [SESSION_COOKIE]: token } });
  expect(res.statusCode).toBe(200);
  return userSchema.parse(res.json());
}

describe('signing in with the code host', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite', { codeHost: true });
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sends the browser to the code host with a state it will check', async () => {
    const start = await app.server.inject('/auth/github?return_uri=/settings');
    const target = new URL(start.headers.location as string);
    expect(target.origin + target.pathname).toBe(`${app.codeHost!.url}/login/oauth/authorize`);
    expect(target.searchParams.get('client_id')).toBe(app.codeHost!.credentials.clientId);
    expect(target.searchParams.get('redirect_uri')).toBe('http://localhost:80/auth/github/callback');
    expect(target.searchParams.get('state')).toMatch(/^[0-9a-f]{48}$/);
    expect(start.cookies.find((c) => c.name === 'tandem_oauth')).toMatchObject({
      httpOnly: true,
      path: '/auth',
    });
  });

  it('signs ada in as product admin with both installations, and returns to the asked path', async () => {
    const { done } = await signInThroughCodeHost(app, 'ada', '/gh/acme/webapp/agents');
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/gh/acme/webapp/agents');
    const session = done.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const ada = await me(app, session.value);
    expect(ada).toMatchObject({
      username: 'ada',
      email: 'ada@example.com',
      admin: true,
      active_installation_id: 1000,
    });
    expect(ada.installations.map((i) => [i.name, i.role])).toEqual([
      ['acme', 'admin'],
      ['ada', 'admin'],
    ]);
    expect(ada.repositories).toEqual(['acme/api', 'acme/webapp', 'ada/playground']);
  });

  it('makes bob a member of acme, and eve a user with no installation', async () => {
    const bob = await me(
      app,
      (await signInThroughCodeHost(app, 'bob')).done.cookies.find((c) => c.name === SESSION_COOKIE)!.value,
    );
    expect(bob).toMatchObject({ admin: false, installations: [{ name: 'acme', role: 'member' }] });
    const eve = await me(
      app,
      (await signInThroughCodeHost(app, 'eve')).done.cookies.find((c) => c.name === SESSION_COOKIE)!.value,
    );
    expect(eve).toMatchObject({
      admin: false,
      installations: [],
      repositories: [],
      active_installation_id: null,
    });
  });

  it('refuses a wrong state, a replayed code and a foreign return path', async () => {
    const { callback, oauthCookie } = await signInThroughCodeHost(app, 'bob');
    const replay = await app.server.inject({
      url: callback.pathname + callback.search,
      cookies: { tandem_oauth: oauthCookie.value },
    });
    expect(replay.headers.location).toBe('/login?error=code');

    const forged = new URL(callback);
    forged.searchParams.set('state', 'f'.repeat(48));
    const wrongState = await app.server.inject({
      url: forged.pathname + forged.search,
      cookies: { tandem_oauth: oauthCookie.value },
    });
    expect(wrongState.headers.location).toBe('/login?error=state');
    expect(wrongState.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    const { done } = await signInThroughCodeHost(app, 'bob', '//evil.example/steal');
    expect(done.headers.location).toBe('/');
  });

  it('drops the current session when asked to sign in again after a revocation', async () => {
    const token = (await signInThroughCodeHost(app, 'bob')).done.cookies.find(
      (c) => c.name === SESSION_COOKIE,
    )!.value;
    // The browser marks a navigation started by our own page as same-origin.
    const restart = await app.server.inject({
      url: '/auth/github?revoked=true',
      cookies: { [SESSION_COOKIE]: token },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(restart.statusCode).toBe(302);
    expect(restart.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
    const after = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('does not sign anyone out when another site (or a same-site preview) links to revoked=true', async () => {
    const token = (await signInThroughCodeHost(app, 'bob')).done.cookies.find(
      (c) => c.name === SESSION_COOKIE,
    )!.value;
    const attempts = [
      { 'sec-fetch-site': 'cross-site' },
      // An <img> on an agent's preview at {subdomain}.localhost: same site, not same origin.
      { 'sec-fetch-site': 'same-site' },
      // A browser without Fetch Metadata, from a foreign page or with no referrer at all.
      { referer: 'https://evil.example/page' },
      {},
    ];
    for (const headers of attempts) {
      const res = await app.server.inject({
        url: '/auth/github?revoked=true',
        cookies: { [SESSION_COOKIE]: token },
        headers,
      });
      // Sign-in still starts; the session is neither revoked nor cleared.
      expect(res.statusCode).toBe(302);
      expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
      expect((await me(app, token)).username).toBe('bob');
    }
  });

  it('links the tracked visitor (lead_id) to the user who signs in', async () => {
    // The lead is the one this browser's visit created (its lead cookie comes along).
    const visit = await app.server.inject({
      method: 'POST',
      url: '/api/track-visit',
      payload: { lead_data: { utm_source: 'google' } },
    });
    const leadId = visit.json().lead_id as string;
    const leadCookie = visit.cookies.find((c) => c.name === LEAD_COOKIE)!.value;
    await signInThroughCodeHost(app, 'eve', '/agents', `&lead_id=${leadId}`, { [LEAD_COOKIE]: leadCookie });
    const [lead] = await app.database.db.select().from(leads).where(eq(leads.id, leadId));
    const [eve] = await app.database.db.select().from(users).where(eq(users.username, 'eve'));
    expect(lead!.userId).toBe(eve!.id);
  });

  it("does not link another browser's lead to whoever signs in with its id", async () => {
    await app.database.db.insert(leads).values({ id: 'lead-42', data: { utm_source: 'google' } });
    await signInThroughCodeHost(app, 'bob', '/agents', '&lead_id=lead-42');
    const [lead] = await app.database.db.select().from(leads).where(eq(leads.id, 'lead-42'));
    expect(lead!.userId).toBeNull();
  });

  it('reports a denied sign-in back to the login page', async () => {
    const res = await app.server.inject('/auth/github/callback?error=access_denied&state=x');
    expect(res.headers.location).toBe('/login?error=denied');
  });

  it('lets a user pick an active installation they belong to, and no other', async () => {
    const token = (await signInThroughCodeHost(app, 'ada')).done.cookies.find(
      (c) => c.name === SESSION_COOKIE,
    )!.value;
    const post = (installation_id: number) =>
      app.server.inject({
        method: 'POST',
        url: '/api/users/active-installation',
        headers: { authorization: `Bearer ${token}` },
        payload: { installation_id },
      });
    const chosen = await post(1001);
    expect(chosen.json()).toMatchObject({ active_installation_id: 1001 });
    expect((await me(app, token)).active_installation_id).toBe(1001);
    expect((await post(424242)).statusCode).toBe(404);
    expect((await post(-1)).statusCode).toBe(422);
  });

  it('tells the web app where to install the App', async () => {
    const res = await app.server.inject('/api/config');
    expect(res.json()).toMatchObject({
      product_name: 'Tandem',
      code_host_url: app.codeHost!.url,
      install_url: `${app.codeHost!.url}/apps/tandem/installations/new`,
      app_slug: 'tandem',
      site: {
        landing_claim: null,
        support_email: 'support@tandem.local',
        model_providers: ['Anthropic', 'OpenAI'],
      },
      sunset: null,
    });
  });

  it('re-reads installations from the code host after eve installs the App', async () => {
    const token = (await signInThroughCodeHost(app, 'eve')).done.cookies.find(
      (c) => c.name === SESSION_COOKIE,
    )!.value;
    const signIn = await fetch(`${app.codeHost!.url}/session`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(app.codeHost!.url).origin,
      },
      body: new URLSearchParams({ login: 'eve', return_to: '/' }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    await fetch(`${app.codeHost!.url}/apps/tandem/installations`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(app.codeHost!.url).origin,
      },
      body: new URLSearchParams({ account: 'eve' }),
    });
    const synced = await app.server.inject({
      method: 'POST',
      url: '/api/installations/sync',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(synced.statusCode).toBe(200);
    expect(userSchema.parse(synced.json()).installations).toEqual([
      expect.objectContaining({ name: 'eve', role: 'admin' }),
    ]);
  });

  it('creates a repository from the template on the active installation, with the spec errors', async () => {
    const adaToken = (await signInThroughCodeHost(app, 'ada')).done.cookies.find(
      (c) => c.name === SESSION_COOKIE,
    )!.value;
    const bobToken = (await signInThroughCodeHost(app, 'bob')).done.cookies.find(
      (c) => c.name === SESSION_COOKIE,
    )!.value;
    const create = (token: string, payload: Record<string, unknown>) =>
      app.server.inject({
        method: 'POST',
        url: '/api/installation/create-repo',
        headers: { authorization: `Bearer ${token}`, 'x-installation-id': '1000' },
        payload,
      });

    const created = await create(adaToken, { repo_name: 'new-site', description: 'A new site' });
    expect(created.json()).toEqual({ repo_owner: 'acme', repo_name: 'new-site' });
    expect((await me(app, adaToken)).repositories).toContain('acme/new-site');

    const again = await create(adaToken, { repo_name: 'new-site' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('A repository with this name already exists or is not installed.');
    const asMember = await create(bobToken, { repo_name: 'bobs-site' });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().detail).toBe('Tandem does not have permission to create repositories.');
    const noTemplate = await create(adaToken, { repo_name: 'x-site', template_repo: 'missing-template' });
    expect(noTemplate.statusCode).toBe(422);
    expect(noTemplate.json().detail).toBe('Invalid repository name or template not found.');
    const badName = await create(adaToken, { repo_name: 'no spaces' });
    expect(badName.json().detail[0].msg).toBe(
      'Repository name can only contain letters, numbers, hyphens, underscores, and periods',
    );
  });
});
