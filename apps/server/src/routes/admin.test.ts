import { agents, installations, repositories, webhookDeliveries } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import {
  adminInstallationListSchema,
  createAgentResponseSchema,
  INSTALLATION_BANNED_MESSAGE,
  installationBannedSchema,
} from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordingRunner } from '../testing/test-app.js';
import { deliverWebhook } from '../testing/code-host-product.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/** The admin installations table and bans (platform §7 Admin; issue 21). */
describe.each(testDatabaseKinds())('admin installations on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let root: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  const as = (user?: TestUser) => (user ? { authorization: `Bearer ${user.token}` } : {});

  beforeAll(async () => {
    app = testApp();
    root = await app.signIn({ username: 'root', admin: true });
    carol = await app.signIn({
      username: 'carol',
      installations: [
        { id: 41, name: 'acme', role: 'admin', repos: ['acme/webapp'] },
        { id: 42, name: 'Acme-Labs', role: 'admin', repos: ['acme-labs/site'] },
      ],
    });
    dave = await app.signIn({
      username: 'dave',
      installations: [{ id: 43, name: 'zeta', role: 'member', repos: ['zeta/app'] }],
    });
  });

  it('is for product admins only: 401 without a session, 403 for installation admins and members', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/admin/installations' },
      {
        method: 'POST' as const,
        url: '/api/admin/ban-installation',
        payload: { installation_id: 41, banned: true },
      },
      { method: 'GET' as const, url: '/api/admin/installation/41/banned' },
    ];
    for (const call of calls) {
      expect((await app.server.inject({ ...call })).statusCode, call.url).toBe(401);
      expect((await app.server.inject({ ...call, headers: as(carol) })).statusCode, call.url).toBe(403);
      expect((await app.server.inject({ ...call, headers: as(dave) })).statusCode, call.url).toBe(403);
    }
    const [row] = await app.database.db.select().from(installations).where(eq(installations.id, 41));
    expect(row!.bannedAt).toBeNull();
  });

  it('lists, searches, sorts and pages installations', async () => {
    const list = async (query: string) => {
      const res = await app.server.inject({ url: `/api/admin/installations?${query}`, headers: as(root) });
      expect(res.statusCode, res.body).toBe(200);
      return adminInstallationListSchema.parse(res.json());
    };
    const byName = await list('sort_by=name&descending=false');
    expect(byName.installations.map((i) => i.name)).toEqual(['acme', 'Acme-Labs', 'zeta']);
    expect(byName.count).toBe(3);
    expect(byName.installations[0]).toMatchObject({ id: 41, members: 1, agents: 0, banned_at: null });
    const search = await list('search=ACME');
    expect(search.installations.map((i) => i.id).sort()).toEqual([41, 42]);
    expect((await list('search=43')).installations.map((i) => i.id)).toEqual([43]);
    expect((await list('search=100%25')).installations).toEqual([]);
    const page2 = await list('sort_by=name&descending=true&rows_per_page=2&page=2');
    expect(page2.installations.map((i) => i.name)).toEqual(['acme']);
    expect(page2.count).toBe(3);
    for (const bad of ['sort_by=password', 'rows_per_page=0', 'page=-1', 'descending=maybe']) {
      const res = await app.server.inject({ url: `/api/admin/installations?${bad}`, headers: as(root) });
      expect(res.statusCode, bad).toBe(422);
    }
  });

  it('bans an installation: its agents stop, its members cannot start or message agents, its events start nothing', async () => {
    const created = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(carol),
      payload: { body: 'Before the ban' },
    });
    const { agent_id } = createAgentResponseSchema.parse(created.json());
    await app.database.db.update(agents).set({ status: 'open' }).where(eq(agents.id, agent_id));

    const ban = await app.server.inject({
      method: 'POST',
      url: '/api/admin/ban-installation',
      headers: as(root),
      payload: { installation_id: 41, banned: true },
    });
    expect(ban.statusCode).toBe(200);
    expect(installationBannedSchema.parse(ban.json())).toMatchObject({ banned: true, stopped_agents: 1 });
    expect((app.runner as RecordingRunner).interrupted).toContain(agent_id);
    const state = installationBannedSchema.parse(
      (await app.server.inject({ url: '/api/admin/installation/41/banned', headers: as(root) })).json(),
    );
    expect(state.banned).toBe(true);
    expect(state.banned_at).toEqual(expect.any(String));

    const again = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(carol),
      payload: { body: 'After the ban' },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ detail: INSTALLATION_BANNED_MESSAGE });
    const message = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agent_id}`,
      headers: as(carol),
      payload: { message: 'Hello?' },
    });
    expect(message.statusCode).toBe(403);
    expect(await app.database.db.select().from(agents).where(eq(agents.installationId, 41))).toHaveLength(1);
    // Carol's other installation is not banned.
    const other = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme-labs/site',
      headers: as(carol),
      payload: { body: 'Elsewhere' },
    });
    expect(other.statusCode).toBe(200);

    // A tag on the code host is recorded and applied once, asking the code host nothing.
    const [repo] = await app.database.db
      .select({ githubId: repositories.githubId })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    const status = await deliverWebhook(app, 'issue_comment', 'd-banned', {
      action: 'created',
      installation: { id: 41 },
      repository: { id: repo!.githubId, full_name: 'acme/webapp' },
      issue: { number: 4, state: 'open', title: 'Flaky test' },
      comment: { id: 88, body: '@tandem please fix', user: { id: 777, login: 'carol', type: 'User' } },
      sender: { id: 777, login: 'carol', type: 'User' },
    });
    expect(status).toBe(200);
    const [delivery] = await app.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryId, 'd-banned'));
    expect(delivery).toMatchObject({ attempts: 1, error: null });

    // Lifting the ban lets carol work again.
    const lift = await app.server.inject({
      method: 'POST',
      url: '/api/admin/ban-installation',
      headers: as(root),
      payload: { installation_id: 41, banned: false },
    });
    expect(installationBannedSchema.parse(lift.json())).toMatchObject({ banned: false, banned_at: null });
    const after = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agent_id}`,
      headers: as(carol),
      payload: { message: 'Back again' },
    });
    expect(after.statusCode).toBe(200);
  });

  it('answers 404 for an installation that does not exist and 422 for a bad id', async () => {
    const missing = await app.server.inject({
      method: 'POST',
      url: '/api/admin/ban-installation',
      headers: as(root),
      payload: { installation_id: 999_999, banned: true },
    });
    expect(missing.statusCode).toBe(404);
    expect(
      (await app.server.inject({ url: '/api/admin/installation/abc/banned', headers: as(root) })).statusCode,
    ).toBe(422);
  });
});
