import { sign } from '@octokit/webhooks-methods';
import { SESSION_COOKIE, userSchema } from '@tandem/shared';
import { testDatabaseKinds } from '@tandem/db/testing';
import { repositories, users, webhookDeliveries } from '@tandem/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    return app.server.inject({
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
});
