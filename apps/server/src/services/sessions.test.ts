import { eq } from 'drizzle-orm';
import { sessions, users } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionTokens } from '../auth/session-tokens.js';
import { useTestApp, type TestApp } from '../testing/test-app.js';
import { SessionService } from './sessions.js';

const SECRET = 'sessions-test-secret-sessions-test-secret';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabaseKinds())('session cache on %s', (kind) => {
  let database: TestDatabase;
  let userId: string;
  const sessionReads: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(kind, {
      logQuery: (query) => {
        if (/from "sessions" inner join "users"/i.test(query)) sessionReads.push(query);
      },
    });
    const [user] = await database.db.insert(users).values({ githubId: 1, username: 'ada' }).returning();
    userId = user!.id;
  });
  afterAll(() => database.destroy());

  const service = (cacheMs: number) =>
    new SessionService(database.db, new SessionTokens(SECRET), 30, cacheMs);

  it('forgets a revoked session at once in the process that revoked it', async () => {
    const server = service(60_000);
    const { token } = await server.create(userId);
    const user = await server.resolve(token);
    expect(user?.username).toBe('ada');
    await server.revoke(user!.sessionId);
    expect(await server.resolve(token)).toBeUndefined();
  });

  it('answers from the cache without a read only what resolve kept, for the cache time', async () => {
    const server = service(200);
    const { token } = await server.create(userId);
    // Never resolved: nothing to answer from, the caller must resolve (and the row be read).
    expect(server.cachedUser(token)).toBeUndefined();
    const user = await server.resolve(token);
    const reads = sessionReads.length;
    expect(server.cachedUser(token)).toEqual(user);
    expect(sessionReads).toHaveLength(reads);
    await sleep(250);
    expect(server.cachedUser(token)).toBeUndefined();
    // A revocation here empties it at once.
    await server.resolve(token);
    await server.revoke(user!.sessionId);
    expect(server.cachedUser(token)).toBeUndefined();
    expect(server.cachedUser('not-a-token')).toBeUndefined();
  });

  it('honours a revocation made by another server once its cache time has passed', async () => {
    const one = service(300);
    const other = service(300);
    const { token } = await one.create(userId);
    const user = await one.resolve(token);
    await other.revoke(user!.sessionId);
    expect(await other.resolve(token)).toBeUndefined();
    await sleep(350);
    expect(await one.resolve(token)).toBeUndefined();
  });

  it('reads the row again after the cache time (an admin flag change shows)', async () => {
    const server = service(200);
    const { token } = await server.create(userId);
    expect((await server.resolve(token))?.admin).toBe(false);
    await database.db.update(users).set({ admin: true }).where(eq(users.id, userId));
    await sleep(250);
    expect((await server.resolve(token))?.admin).toBe(true);
    await database.db.update(users).set({ admin: false }).where(eq(users.id, userId));
  });

  it('never trusts a cached session past its expiry', async () => {
    const server = service(60_000);
    const { token } = await server.create(userId);
    const user = await server.resolve(token);
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, user!.sessionId));
    // Still cached: the row is not read again within the cache time…
    expect(await server.resolve(token)).toBeDefined();
    // …but a fresh server (or this one after the cache time) sees the expired row.
    expect(await service(60_000).resolve(token)).toBeUndefined();
  });

  it('reads a token not yet cached once for requests that arrive together', async () => {
    const server = service(60_000);
    const { token } = await server.create(userId);
    sessionReads.length = 0;
    const users = await Promise.all(Array.from({ length: 20 }, () => server.resolve(token)));
    expect(users.map((user) => user?.username)).toEqual(Array(20).fill('ada'));
    expect(sessionReads).toHaveLength(1);
  });

  it('refuses every request that shared a read the session was revoked during', async () => {
    const server = service(60_000);
    const { token } = await server.create(userId);
    const sessionId = (await service(0).resolve(token))!.sessionId;
    const together = Array.from({ length: 5 }, () => server.resolve(token));
    await server.revoke(sessionId);
    expect(await Promise.all(together)).toEqual(Array(5).fill(undefined));
    expect(await server.resolve(token)).toBeUndefined();
  });

  it('refuses a forged token without caching it', async () => {
    const server = service(60_000);
    const { token } = await server.create(userId);
    const forged = `${token.slice(0, -4)}AAAA`;
    expect(await server.resolve(forged)).toBeUndefined();
    expect(await server.resolve(token)).toBeDefined();
  });
});

describe('signing out over the API', () => {
  const testApp = useTestApp();
  let app: TestApp;
  beforeAll(() => {
    app = testApp();
  });

  it('stops the token at once, even while its session is cached', async () => {
    const ada = await app.signIn({ username: 'ada' });
    const headers = { authorization: `Bearer ${ada.token}` };
    for (let i = 0; i < 3; i++) {
      expect((await app.server.inject({ url: '/api/users/me', headers })).statusCode).toBe(200);
    }
    const out = await app.server.inject({ method: 'POST', url: '/api/auth/logout', headers });
    expect(out.statusCode).toBe(200);
    expect((await app.server.inject({ url: '/api/users/me', headers })).statusCode).toBe(401);
    expect((await app.server.inject({ url: '/api/agents/status-counts', headers })).statusCode).toBe(401);
  });
});
