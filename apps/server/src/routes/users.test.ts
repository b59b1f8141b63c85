import { testDatabaseKinds } from '@tandem/db/testing';
import { cliTokenResponseSchema, SESSION_COOKIE, userSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

describe.each(testDatabaseKinds())('sessions and /api/users/me on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 401 without a session or with a forged token', async () => {
    expect((await app.server.inject('/api/users/me')).statusCode).toBe(401);
    const forged = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('returns the spec User fields for a Bearer token and for the cookie', async () => {
    const ada = await app.signIn({
      username: 'ada',
      admin: true,
      installations: [
        { id: 11, name: 'acme', role: 'admin', repos: ['acme/webapp', 'acme/api'] },
        { id: 12, name: 'ada', role: 'member', repos: ['ada/playground'] },
      ],
    });
    const byBearer = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${ada.token}` },
    });
    expect(byBearer.statusCode).toBe(200);
    const user = userSchema.parse(byBearer.json());
    expect(user).toEqual({
      user_id: ada.id,
      username: 'ada',
      email: null,
      admin: true,
      installations: [
        { id: 11, name: 'acme', avatar_url: null, role: 'admin' },
        { id: 12, name: 'ada', avatar_url: null, role: 'member' },
      ],
      repositories: ['acme/api', 'acme/webapp', 'ada/playground'],
      active_installation_id: 11,
    });

    const byCookie = await app.server.inject({
      url: '/api/users/me',
      cookies: { [SESSION_COOKIE]: ada.token },
    });
    expect(byCookie.json()).toEqual(user);
  });

  it('logs out: clears the cookie and revokes the session server-side', async () => {
    const bob = await app.signIn({ username: 'bob' });
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { [SESSION_COOKIE]: bob.token },
      headers: { 'x-tandem-csrf': '1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const cleared = res.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cleared).toMatchObject({ value: '', httpOnly: true, sameSite: 'Lax', path: '/' });

    const after = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${bob.token}` },
    });
    expect(after.statusCode).toBe(401);
  });

  it('protects cookie-authenticated writes against CSRF, but not Bearer calls', async () => {
    const eve = await app.signIn({ username: 'eve' });
    const cookies = { [SESSION_COOKIE]: eve.token };
    const noProof = await app.server.inject({ method: 'POST', url: '/api/auth/logout', cookies });
    expect(noProof.statusCode).toBe(403);

    const crossSite = await app.server.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies,
      headers: { origin: 'https://evil.example', 'x-tandem-csrf': '1' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect((await app.server.inject({ url: '/api/users/me', cookies })).statusCode).toBe(200);

    const sameOrigin = await app.server.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies,
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(sameOrigin.statusCode).toBe(200);

    const mallory = await app.signIn({ username: 'mallory' });
    const bearer = await app.server.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${mallory.token}` },
    });
    expect(bearer.statusCode).toBe(200);
  });

  it('issues a separate CLI token to a signed-in browser, which works as a Bearer token', async () => {
    const ada = await app.signIn({ username: 'ada-cli' });
    const anonymous = await app.server.inject({
      method: 'POST',
      url: '/api/auth/cli-token',
      headers: { 'x-tandem-csrf': '1' },
    });
    expect(anonymous.statusCode).toBe(401);
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/auth/cli-token',
      cookies: { [SESSION_COOKIE]: ada.token },
      headers: { 'x-tandem-csrf': '1' },
    });
    const { token } = cliTokenResponseSchema.parse(res.json());
    expect(token).not.toBe(ada.token);
    const me = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json()).toMatchObject({ username: 'ada-cli' });
  });
});
