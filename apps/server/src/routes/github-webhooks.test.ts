import { sign } from '@octokit/webhooks-methods';
import { SESSION_COOKIE, userSchema } from '@tandem/shared';
import { testDatabaseKinds } from '@tandem/db/testing';
import { repositories, users, webhookDeliveries } from '@tandem/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DELIVERY_RETENTION_MS, WEBHOOK_MAX_AGE_MS } from '../services/webhook-deliveries.js';
import { until } from '../testing/agent-harness.js';
import { createTestApp, TEST_WEBHOOK_SECRET, type TestApp } from '../testing/test-app.js';

describe.each(testDatabaseKinds())('code-host webhooks on %s', (kind) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(kind);
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const deliver = async (event: string, id: string, payload: unknown, secret = TEST_WEBHOOK_SECRET) => {
    const body = JSON.stringify(payload);
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': id,
        'x-hub-signature-256': await sign(secret, body),
      },
      payload: body,
    });
    // Answered at once; the queue applies it after.
    await app.webhooks.idle();
    return res;
  };

  const installationCreated = (githubUserId: number) => ({
    action: 'created',
    installation: { id: 5001, account: { id: githubUserId, login: 'carol', type: 'User', avatar_url: null } },
    repositories: [{ id: 9001, full_name: 'carol/site', private: false }],
    sender: { id: githubUserId, login: 'carol' },
  });

  it('refuses a bad signature with 401 and changes nothing', async () => {
    const res = await deliver('installation', 'd-bad', installationCreated(1), 'wrong-secret');
    expect(res.statusCode).toBe(401);
    expect(await app.database.db.select().from(webhookDeliveries)).toHaveLength(0);
  });

  it('syncs a new installation to the user who installed it, once per delivery id', async () => {
    const carol = await app.signIn({ username: 'carol' });
    const [row] = await app.database.db.select().from(users);
    const payload = installationCreated(row!.githubId);

    const first = await deliver('installation', 'd-1', payload);
    expect(first.json()).toEqual({ ok: true });
    const profile = userSchema.parse(
      (await app.server.inject({ url: '/api/users/me', cookies: { [SESSION_COOKIE]: carol.token } })).json(),
    );
    expect(profile.installations).toEqual([
      expect.objectContaining({ id: 5001, name: 'carol', role: 'admin' }),
    ]);
    expect(profile.repositories).toEqual(['carol/site']);

    const again = await deliver('installation', 'd-1', payload);
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    expect(await app.database.db.select().from(webhookDeliveries)).toHaveLength(1);
  });

  it('follows repositories added to and removed from an installation', async () => {
    await deliver('installation_repositories', 'd-2', {
      action: 'added',
      installation: { id: 5001, account: { id: 1, login: 'carol', type: 'User' } },
      repositories_added: [{ id: 9002, full_name: 'carol/blog', private: true }],
      repositories_removed: [{ id: 9001, full_name: 'carol/site' }],
    });
    const repos = await app.database.db.select().from(repositories);
    expect(repos.map((r) => [r.fullName, r.removedAt === null]).sort()).toEqual([
      ['carol/blog', true],
      ['carol/site', false],
    ]);
  });
  it('answers a delivery at once and retries it when handling fails, then keeps it with its error', async () => {
    await app.signIn({
      username: 'dora',
      installations: [{ id: 5002, name: 'dora', role: 'admin', repos: ['dora/app'] }],
    });
    const [repo] = await app.database.db
      .select({ githubId: repositories.githubId })
      .from(repositories)
      .where(eq(repositories.fullName, 'dora/app'));
    // The test app's code host does not answer, so asking whether the commenter may write fails.
    const started = Date.now();
    const res = await deliver('issue_comment', 'd-retry', {
      action: 'created',
      installation: { id: 5002 },
      repository: { id: repo!.githubId, full_name: 'dora/app' },
      issue: { number: 4, state: 'open', title: 'Flaky test' },
      comment: { id: 88, body: '@tandem please fix', user: { id: 777, login: 'dora', type: 'User' } },
      sender: { id: 777, login: 'dora', type: 'User' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const row = async () =>
      (
        await app.database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.deliveryId, 'd-retry'))
      )[0]!;
    // Three retries (the test app waits 50, 100 and 200 ms), then it is kept for an operator.
    await until(
      'the delivery to be given up',
      async () => ((await row()).attempts === 4 && (await row()).nextAttemptAt === null ? true : undefined),
      { timeoutMs: 10_000, intervalMs: 25 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    const failed = await row();
    expect(failed.processedAt).toBeNull();
    expect(failed.error).toBeTruthy();
    expect(JSON.parse(failed.payload!)).toMatchObject({ comment: { id: 88, body: '@tandem please fix' } });
  });
});

describe('webhook replays', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite');
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const deliver = async (event: string, id: string, payload: unknown) => {
    const body = JSON.stringify(payload);
    return app.server.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-github-delivery': id,
        'x-hub-signature-256': await sign(TEST_WEBHOOK_SECRET, body),
      },
      payload: body,
    });
  };
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  const closed = (at: string) => ({
    action: 'closed',
    repository: { id: 77 },
    issue: { number: 3, state: 'closed', created_at: hoursAgo(500), updated_at: at, closed_at: at },
  });

  it('prunes delivery rows past the retention window', async () => {
    const old = new Date(Date.now() - DELIVERY_RETENTION_MS - 60_000);
    await app.database.db.insert(webhookDeliveries).values([
      { deliveryId: 'ancient-1', event: 'ping', receivedAt: old },
      { deliveryId: 'recent-1', event: 'ping', receivedAt: new Date(Date.now() - 3_600_000) },
    ]);
    expect((await deliver('ping', 'p-1', { zen: 'Keep it logically awesome.' })).statusCode).toBe(200);
    const ids = (await app.database.db.select().from(webhookDeliveries)).map((r) => r.deliveryId).sort();
    expect(ids).toEqual(['p-1', 'recent-1']);
  });

  it('refuses a signed delivery whose event is older than the window, and records nothing', async () => {
    const res = await deliver('issues', 'stale-1', closed(hoursAgo(WEBHOOK_MAX_AGE_MS / 3_600_000 + 1)));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/older than 72 hours; refused as a possible replay/);
    const rows = await app.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryId, 'stale-1'));
    expect(rows).toHaveLength(0);
  });

  it('treats a dated delivery replayed under a fresh delivery id as a duplicate', async () => {
    const payload = closed(hoursAgo(1));
    expect((await deliver('issues', 'fresh-1', payload)).json()).toEqual({ ok: true });
    // X-GitHub-Delivery is not signed: the replay makes up a new one.
    expect((await deliver('issues', 'forged-id-2', payload)).json()).toEqual({ ok: true, duplicate: true });
    // GitHub's own redelivery (same id, same body) is a duplicate as before.
    expect((await deliver('issues', 'fresh-1', payload)).json()).toEqual({ ok: true, duplicate: true });
    // A later, different event on the same issue is new.
    expect((await deliver('issues', 'fresh-3', closed(hoursAgo(0)))).json()).toEqual({ ok: true });
  });
});
