import { brotliDecompressSync } from 'node:zlib';
import { eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { agentReads, agents, memberships, openDatabase, repositories, type Database } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { createAgentResponseSchema, latestTimestampSchema, statusCountsSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../../testing/test-app.js';
import { PollCache } from './poll-cache.js';

/**
 * The polls answer from memory, and every change reaches them through the database's change
 * notices, whoever makes it: on Postgres the writes here come over a connection of their own, as
 * from another server process.
 */
describe.each(testDatabaseKinds())('poll cache on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let agentId: string;
  /** Another process's view of the same database (the same one on PGlite). */
  let other: Database | undefined;
  const writer = () => other?.db ?? app.database.db;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const poll = async (user: TestUser) => {
    const res = await app.server.inject({
      url: `/api/agent/latest-timestamp?trajectory_id=${agentId}`,
      headers: as(user),
    });
    return res.statusCode === 200 ? latestTimestampSchema.parse(res.json()).latest_timestamp : res.statusCode;
  };
  const counts = async (user: TestUser) => {
    const res = await app.server.inject({ url: '/api/agents/status-counts', headers: as(user) });
    return statusCountsSchema.parse(res.json());
  };

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 21, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: 21, name: 'acme', role: 'member' }] });
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body: 'First message' },
    });
    agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    if (app.database.url) other = await openDatabase({ kind: 'postgres', url: app.database.url });
  });
  afterAll(async () => {
    await other?.close();
  });

  it('answers from memory and sees a new latest_timestamp', async () => {
    const before = await poll(ada);
    expect(typeof before).toBe('string');
    expect(app.pollCache.agents.size).toBeGreaterThan(0);
    const later = new Date(Date.parse(before as string) + 60_000);
    await writer().update(agents).set({ latestTimestamp: later }).where(eq(agents.id, agentId));
    await expect.poll(() => poll(ada), { timeout: 5000 }).toBe(later.toISOString());
  });

  it('settles: every change committed before settled() is seen after it, on any connection', async () => {
    for (let i = 1; i <= 5; i++) {
      const before = await poll(ada);
      const later = new Date(Date.parse(before as string) + 1_000);
      await writer().update(agents).set({ latestTimestamp: later }).where(eq(agents.id, agentId));
      await app.pollCache.settled();
      expect(await poll(ada)).toBe(later.toISOString());
    }
  });

  it('honours a lost membership and a repository made private', async () => {
    await writer()
      .update(repositories)
      .set({ agentsPublic: true })
      .where(eq(repositories.installationId, 21));
    await expect.poll(() => poll(bob), { timeout: 5000 }).toEqual(expect.any(String));
    await writer()
      .update(repositories)
      .set({ agentsPublic: false })
      .where(eq(repositories.installationId, 21));
    await expect.poll(() => poll(bob), { timeout: 5000 }).toBe(404);
    await writer()
      .update(repositories)
      .set({ agentsPublic: true })
      .where(eq(repositories.installationId, 21));
    await expect.poll(() => poll(bob), { timeout: 5000 }).toEqual(expect.any(String));
    await writer().delete(memberships).where(eq(memberships.userId, bob.id));
    await expect.poll(() => poll(bob), { timeout: 5000 }).toBe(404);
  });

  it('sees status changes, new agents and read marks in status-counts', async () => {
    await writer().update(agents).set({ status: 'paused' }).where(eq(agents.id, agentId));
    await expect.poll(async () => (await counts(ada)).running_agents.length, { timeout: 5000 }).toBe(0);
    const unread = (await counts(ada)).unread_agents.map((a) => a.id);
    expect(unread).toContain(agentId);
    const readAt = new Date(Date.now() + 3_600_000);
    await writer()
      .insert(agentReads)
      .values({ agentId, userId: ada.id, readAt })
      .onConflictDoUpdate({ target: [agentReads.agentId, agentReads.userId], set: { readAt } });
    await expect
      .poll(async () => (await counts(ada)).unread_agents.map((a) => a.id), { timeout: 5000 })
      .not.toContain(agentId);
    await writer().update(agents).set({ status: 'open' }).where(eq(agents.id, agentId));
    await expect
      .poll(async () => (await counts(ada)).running_agents.map((a) => a.id), { timeout: 5000 })
      .toContain(agentId);
  });

  it('sends a large status-counts answer compressed as a browser asks, the same answer either way', async () => {
    await writer()
      .update(agents)
      .set({ title: 'A long title '.repeat(100) })
      .where(eq(agents.id, agentId));
    // The agent is running (the test before left it open): its title is in the answer.
    await expect
      .poll(() => counts(ada).then((c) => c.running_agents[0]?.title), { timeout: 5000 })
      .toMatch(/^A long/);
    const asBrowser = await app.server.inject({
      url: '/api/agents/status-counts',
      headers: { ...as(ada), 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(asBrowser.headers['content-encoding']).toBe('br');
    const answer = statusCountsSchema.parse(
      JSON.parse(brotliDecompressSync(asBrowser.rawPayload).toString()),
    );
    expect(answer).toEqual(await counts(ada));
  });

  it('answers a mutating request only once its change is in the caches', async () => {
    await poll(ada);
    const res = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agentId}`,
      headers: as(ada),
      payload: { message: 'Another one' },
    });
    expect(res.statusCode).toBe(200);
    // Polled at once, before anything else gives the notice time to arrive.
    const polled = await poll(ada);
    const [row] = await app.database.db
      .select({ latest: agents.latestTimestamp })
      .from(agents)
      .where(eq(agents.id, agentId));
    expect(polled).toBe(row!.latest!.toISOString());
  });

  // Postgres only: PGlite's notices are in-process, with no connection to lose.
  if (kind === 'postgres')
    it('queries while notices are lost, and listens again', async () => {
      await poll(ada);
      expect(app.pollCache.agents.size).toBeGreaterThan(0);
      // The listening connection dies (a database restart, a network cut).
      await writer().execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
          where query like 'LISTEN%' and datname = current_database()`,
      );
      await expect.poll(() => app.pollCache.agents.size, { timeout: 5000 }).toBe(0);
      const later = new Date(Date.now() + 7_200_000);
      await writer().update(agents).set({ latestTimestamp: later }).where(eq(agents.id, agentId));
      expect(await poll(ada)).toBe(later.toISOString());
      // Listening again after a second: polls are kept in memory once more.
      await expect
        .poll(async () => (await poll(ada), app.pollCache.agents.size), { timeout: 8000, interval: 200 })
        .toBeGreaterThan(0);
    });
});

describe('poll cache barriers', () => {
  /** A database whose barrier statements are recorded and whose notices arrive when told. */
  function heldNotices() {
    const dialect = new PgDialect();
    const sent: string[] = [];
    let deliver: (payload: string) => void = () => undefined;
    const database = {
      listen: async (_channel: string, onNotice: (payload: string) => void) => {
        deliver = onNotice;
        return async () => undefined;
      },
      db: {
        execute: async (query: SQL) => {
          sent.push(String(dialect.sqlToQuery(query).params[1]));
        },
      },
    } as unknown as ConstructorParameters<typeof PollCache>[0];
    return { database, sent, hear: (n: number) => deliver(sent[n]!) };
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('shares barriers: calls while one is on its way wait for the next, sent once it is heard', async () => {
    const { database, sent, hear } = heldNotices();
    const cache = new PollCache(database);
    await cache.start();
    const done: string[] = [];
    const track = (name: string) => cache.settled().then(() => done.push(name));
    const a = track('a');
    await tick();
    expect(sent).toHaveLength(1);
    // Their changes may have committed after the first barrier went out: it cannot answer them.
    const bc = [track('b'), track('c')];
    await tick();
    expect(sent).toHaveLength(1);
    hear(0);
    await a;
    await tick();
    expect(done).toEqual(['a']);
    expect(sent).toHaveLength(2);
    const d = track('d');
    await tick();
    expect(sent).toHaveLength(2);
    hear(1);
    await Promise.all(bc);
    await tick();
    expect(done).toEqual(['a', 'b', 'c']);
    expect(sent).toHaveLength(3);
    hear(2);
    await d;
    expect(done).toEqual(['a', 'b', 'c', 'd']);
    await cache.stop();
  });

  it('resolves queued callers when it stops', async () => {
    const { database, sent } = heldNotices();
    const cache = new PollCache(database);
    await cache.start();
    const first = cache.settled();
    const queued = cache.settled();
    await tick();
    expect(sent).toHaveLength(1);
    await cache.stop();
    await Promise.all([first, queued]);
    expect(sent).toHaveLength(1);
  });
});
