import { randomUUID } from 'node:crypto';
import {
  agents,
  conversationItems,
  creditTransactions,
  leads,
  repositories,
  sessionEvents,
  spiceMessages,
  users,
} from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import {
  adminDashboardSchema,
  adminLeadInfoSchema,
  adminModelUsageSchema,
  adminRepositoryListSchema,
  adminUserListSchema,
  adminUserSessionsSchema,
} from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const DAY = 86_400_000;
/** Five minutes into a UTC day `daysAgo` days back: inside that day whatever time the test runs. */
function dayAt(daysAgo: number): Date {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight - daysAgo * DAY + Math.min(5 * 60_000, now.getTime() - midnight));
}
const utcDate = (daysAgo: number) => dayAt(daysAgo).toISOString().slice(0, 10);

/** The admin dashboard, users, sessions, lead info and repositories (platform §7 Admin; issue 21). */
describe.each(testDatabaseKinds())('admin insights on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let root: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  const agentIds: Record<string, string> = {};
  const leadIds = {
    blank: randomUUID(),
    first: randomUUID(),
    later: randomUUID(),
    dave: randomUUID(),
    stranger: randomUUID(),
  };
  const as = (user?: TestUser) => (user ? { authorization: `Bearer ${user.token}` } : {});
  const get = async (url: string, user: TestUser = root) => {
    const res = await app.server.inject({ url, headers: as(user) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as unknown;
  };

  beforeAll(async () => {
    app = testApp();
    const { db } = app.database;
    root = await app.signIn({ username: 'root', admin: true });
    carol = await app.signIn({
      username: 'carol',
      installations: [{ id: 41, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    dave = await app.signIn({
      username: 'dave',
      installations: [{ id: 43, name: 'zeta', role: 'member', repos: ['zeta/app'] }],
    });
    await db.update(users).set({ email: 'carol@example.com' }).where(eq(users.id, carol.id));
    await db.insert(users).values([
      { githubId: 9001, username: 'olduser', createdAt: dayAt(10) },
      { githubId: 9002, username: 'ancient', createdAt: dayAt(100) },
    ]);
    const repoId = async (fullName: string) =>
      (await db.select().from(repositories).where(eq(repositories.fullName, fullName)))[0]!.id;
    const acme = await repoId('acme/webapp');
    const zeta = await repoId('zeta/app');
    const specs = [
      { key: 'a1', repo: acme, inst: 41, user: carol.id, model: 'claude-x', days: 0, status: 'open' },
      { key: 'a2', repo: acme, inst: 41, user: carol.id, model: 'gpt-y', days: 1, status: 'paused' },
      { key: 'a3', repo: zeta, inst: 43, user: dave.id, model: 'claude-x', days: 10, status: 'waiting' },
      { key: 'a4', repo: zeta, inst: 43, user: dave.id, model: 'claude-x', days: 100, status: 'paused' },
    ];
    for (const [i, spec] of specs.entries()) {
      const [row] = await db
        .insert(agents)
        .values({
          number: i + 1,
          repositoryId: spec.repo,
          installationId: spec.inst,
          creatorId: spec.user,
          model: spec.model,
          summarizationLimit: 100_000,
          status: spec.status,
          createdAt: dayAt(spec.days),
        })
        .returning();
      agentIds[spec.key] = row!.id;
    }
    const item = (key: string, days: number, extra: { userId?: string; actionType?: string }) => ({
      agentId: agentIds[key]!,
      timestamp: dayAt(days).toISOString(),
      itemType: extra.actionType ? 'action' : 'message',
      actionUuid: randomUUID(),
      actionType: extra.actionType ?? null,
      userId: extra.userId ?? null,
    });
    await db.insert(conversationItems).values([
      item('a1', 0, { userId: carol.id }),
      item('a2', 1, { userId: carol.id }),
      item('a3', 10, { userId: dave.id }),
      item('a4', 100, { userId: dave.id }),
      // The agent's own items are no one's activity.
      item('a3', 0, {}),
      item('a2', 1, { actionType: 'ErrorEvent' }),
      item('a4', 100, { actionType: 'ErrorEvent' }),
    ]);
    const stats = (input: number, cached: number, output: number, reasoning: number, cost: number) => ({
      input_tokens: input,
      cached_tokens: cached,
      output_tokens: output,
      reasoning_tokens: reasoning,
      time: 1,
      cost,
    });
    const spice = (key: string, days: number, responseStats: Record<string, number> | null) => ({
      agentId: agentIds[key]!,
      timestamp: dayAt(days).toISOString(),
      role: responseStats ? 'assistant' : 'tool',
      content: [],
      responseStats,
    });
    await db
      .insert(spiceMessages)
      .values([
        spice('a1', 0, stats(1000, 200, 50, 0, 1.5)),
        spice('a1', 0, stats(500, 0, 25, 10, 0.75)),
        spice('a1', 0, null),
        spice('a2', 1, stats(300, 0, 30, 0, 0.2)),
        spice('a3', 10, stats(2000, 0, 100, 0, 3)),
        spice('a4', 100, stats(9000, 0, 900, 0, 9)),
      ]);
    const ledger = (inst: number, kind: string, amount: number, days: number, agentId?: string) => ({
      installationId: inst,
      kind,
      amount,
      agentId: agentId ?? null,
      description: kind,
      createdAt: dayAt(days),
    });
    await db
      .insert(creditTransactions)
      .values([
        ledger(41, 'agent', -1500, 0, agentIds.a1),
        ledger(41, 'agent', -500, 1, agentIds.a2),
        ledger(43, 'agent', -3000, 10, agentIds.a3),
        ledger(43, 'agent', -9999, 100, agentIds.a4),
        ledger(41, 'invoice', 100_000, 1),
        ledger(41, 'gift', 5000, 0),
      ]);
    await db.insert(leads).values([
      // An older visit that carried no tracked fields.
      {
        id: leadIds.blank,
        userId: carol.id,
        data: { utm_source: '' },
        createdAt: dayAt(30),
        updatedAt: dayAt(30),
      },
      {
        id: leadIds.first,
        userId: carol.id,
        data: { utm_source: 'newsletter', utm_campaign: 'fall' },
        createdAt: dayAt(20),
        updatedAt: dayAt(2),
      },
      {
        id: leadIds.later,
        userId: carol.id,
        data: { utm_source: 'google', gclid: 'g-1' },
        createdAt: dayAt(5),
        updatedAt: dayAt(1),
      },
      { id: leadIds.dave, userId: dave.id, data: {}, createdAt: dayAt(3) },
      { id: leadIds.stranger, data: { utm_source: 'ads' } },
    ]);
    await db.insert(sessionEvents).values([
      {
        userId: carol.id,
        leadId: leadIds.first,
        type: 'page_view',
        timestamp: dayAt(3),
        data: { url: '/a' },
      },
      { leadId: leadIds.later, type: 'end', timestamp: dayAt(2), data: {} },
      { leadId: leadIds.stranger, type: 'page_view', timestamp: dayAt(1), data: { url: '/' } },
    ]);
  });

  it('is for product admins only: 401 without a session, 403 for everyone else', async () => {
    const urls = [
      '/api/admin/admin_dashboard',
      '/api/admin/model-usage/claude-x',
      '/api/admin/anthropic-usage/claude-x',
      '/api/admin/users',
      '/api/admin/user-sessions',
      `/api/admin/user/${carol.id}/lead-info`,
      '/api/admin/repositories',
    ];
    for (const url of urls) {
      expect((await app.server.inject({ url })).statusCode, url).toBe(401);
      expect((await app.server.inject({ url, headers: as(carol) })).statusCode, url).toBe(403);
      expect((await app.server.inject({ url, headers: as(dave) })).statusCode, url).toBe(403);
    }
  });

  it('counts the last 7 days exactly, by UTC day', async () => {
    const board = adminDashboardSchema.parse(await get('/api/admin/admin_dashboard?days=7'));
    expect(board).toMatchObject({ days: 7, from: utcDate(6), to: utcDate(0) });
    expect(board.totals).toEqual({
      users: 5,
      installations: 2,
      new_users: 3,
      active_users: 1,
      active_installations: 1,
      agents_started: 2,
      agents_running: 2,
      credits_spent: 2000,
      credits_bought: 100_000,
      agents_ran: 2,
      errored_agents: 1,
      error_rate: 0.5,
    });
    expect(board.daily.map((d) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(utcDate));
    expect(board.daily[6]).toEqual({
      date: utcDate(0),
      new_users: 3,
      active_users: 1,
      active_installations: 1,
      agents_started: 1,
      credits_spent: 1500,
      credits_bought: 0,
      errored_agents: 0,
    });
    expect(board.daily[5]).toEqual({
      date: utcDate(1),
      new_users: 0,
      active_users: 1,
      active_installations: 1,
      agents_started: 1,
      credits_spent: 500,
      credits_bought: 100_000,
      errored_agents: 1,
    });
    expect(board.daily.slice(0, 5).every((d) => d.agents_started === 0 && d.credits_spent === 0)).toBe(true);
    expect(board.models).toEqual([
      {
        model: 'claude-x',
        calls: 2,
        input_tokens: 1500,
        cached_tokens: 200,
        output_tokens: 75,
        reasoning_tokens: 10,
        cost_cents: 2.25,
      },
      {
        model: 'gpt-y',
        calls: 1,
        input_tokens: 300,
        cached_tokens: 0,
        output_tokens: 30,
        reasoning_tokens: 0,
        cost_cents: 0.2,
      },
    ]);
  });

  it('widens to 30 and 90 days (default 30) and refuses other ranges', async () => {
    const month = adminDashboardSchema.parse(await get('/api/admin/admin_dashboard'));
    expect(month.days).toBe(30);
    expect(month.daily).toHaveLength(30);
    expect(month.totals).toMatchObject({
      new_users: 4,
      active_users: 2,
      active_installations: 2,
      agents_started: 3,
      credits_spent: 5000,
      agents_ran: 3,
      errored_agents: 1,
      error_rate: 0.3333,
    });
    expect(month.models[0]).toMatchObject({
      model: 'claude-x',
      calls: 3,
      input_tokens: 3500,
      cost_cents: 5.25,
    });
    const quarter = adminDashboardSchema.parse(await get('/api/admin/admin_dashboard?days=90'));
    // What happened 100 days ago is outside every range.
    expect(quarter.totals).toMatchObject({ new_users: 4, agents_started: 3, credits_spent: 5000 });
    for (const bad of ['days=8', 'days=abc', 'days=-7']) {
      const res = await app.server.inject({ url: `/api/admin/admin_dashboard?${bad}`, headers: as(root) });
      expect(res.statusCode, bad).toBe(422);
    }
  });

  it('answers one model’s usage per day, under both names', async () => {
    for (const name of ['model-usage', 'anthropic-usage']) {
      const usage = adminModelUsageSchema.parse(await get(`/api/admin/${name}/claude-x?days=30`));
      expect(usage.totals).toEqual({
        calls: 3,
        input_tokens: 3500,
        cached_tokens: 200,
        output_tokens: 175,
        reasoning_tokens: 10,
        cost_cents: 5.25,
      });
      expect(usage.daily).toHaveLength(30);
      expect(usage.daily.find((d) => d.date === utcDate(10))).toMatchObject({ calls: 1, cost_cents: 3 });
      expect(usage.daily[29]).toMatchObject({ date: utcDate(0), calls: 2, input_tokens: 1500 });
    }
    const none = adminModelUsageSchema.parse(await get('/api/admin/model-usage/no-such-model?days=7'));
    expect(none.totals.calls).toBe(0);
    expect(none.daily).toHaveLength(7);
    // Self-hosted model keys hold a slash: encoded, they are one path segment.
    const local = adminModelUsageSchema.parse(await get('/api/admin/model-usage/local%2Fllama?days=7'));
    expect(local.model).toBe('local/llama');
    for (const bad of ['days=1', 'days=']) {
      const res = await app.server.inject({
        url: `/api/admin/model-usage/claude-x?${bad}`,
        headers: as(root),
      });
      expect(res.statusCode, bad).toBe(422);
    }
  });

  it('lists and searches users, with the utm_source of their first lead', async () => {
    const all = adminUserListSchema.parse(await get('/api/admin/users'));
    expect(all.count).toBe(5);
    expect(all.users.slice(3).map((u) => u.username)).toEqual(['olduser', 'ancient']);
    const byName = new Map(all.users.map((u) => [u.username, u]));
    expect(byName.get('carol')).toMatchObject({
      user_id: carol.id,
      email: 'carol@example.com',
      admin: false,
      installations: 1,
      agents: 2,
      utm_source: 'newsletter',
    });
    expect(byName.get('dave')).toMatchObject({ utm_source: null, agents: 2 });
    expect(byName.get('root')).toMatchObject({ admin: true, utm_source: null });
    const found = adminUserListSchema.parse(await get('/api/admin/users?search=CAROL%40example'));
    expect(found.users.map((u) => u.username)).toEqual(['carol']);
    expect(adminUserListSchema.parse(await get('/api/admin/users?search=%25')).count).toBe(0);
    const page = adminUserListSchema.parse(await get('/api/admin/users?rows_per_page=2&page=3'));
    expect(page.users.map((u) => u.username)).toEqual(['ancient']);
    expect(page.count).toBe(5);
    for (const bad of ['rows_per_page=0', 'page=0', 'rows_per_page=500']) {
      const res = await app.server.inject({ url: `/api/admin/users?${bad}`, headers: as(root) });
      expect(res.statusCode, bad).toBe(422);
    }
  });

  it('shows a user’s lead info (their leads merged, first touch first), empty when none', async () => {
    const info = adminLeadInfoSchema.parse(await get(`/api/admin/user/${carol.id}/lead-info`));
    expect(info).toEqual({
      user_id: carol.id,
      lead_id: leadIds.blank,
      fields: {
        utm_source: 'newsletter',
        utm_campaign: 'fall',
        gclid: 'g-1',
        first_seen_at: dayAt(30).toISOString(),
        updated_at: dayAt(1).toISOString(),
        signed_up_at: expect.any(String),
      },
    });
    const daves = adminLeadInfoSchema.parse(await get(`/api/admin/user/${dave.id}/lead-info`));
    expect(daves).toMatchObject({ lead_id: leadIds.dave, fields: { first_seen_at: dayAt(3).toISOString() } });
    expect(adminLeadInfoSchema.parse(await get(`/api/admin/user/${root.id}/lead-info`))).toEqual({
      user_id: root.id,
      lead_id: null,
      fields: {},
    });
    const missing = await app.server.inject({
      url: `/api/admin/user/${randomUUID()}/lead-info`,
      headers: as(root),
    });
    expect(missing.statusCode).toBe(404);
    const bad = await app.server.inject({ url: '/api/admin/user/abc/lead-info', headers: as(root) });
    expect(bad.statusCode).toBe(422);
  });

  it('lists tracked session events for a user (and their leads), a lead, or everyone', async () => {
    const theirs = adminUserSessionsSchema.parse(await get(`/api/admin/user-sessions?user_id=${carol.id}`));
    expect(theirs.count).toBe(2);
    expect(theirs.events.map((e) => e.type)).toEqual(['end', 'page_view']);
    expect(theirs.events[1]).toMatchObject({ user_id: carol.id, data: { url: '/a' } });
    const lead = adminUserSessionsSchema.parse(
      await get(`/api/admin/user-sessions?lead_id=${leadIds.stranger}`),
    );
    expect(lead.events.map((e) => e.lead_id)).toEqual([leadIds.stranger]);
    const all = adminUserSessionsSchema.parse(await get('/api/admin/user-sessions?rows_per_page=1'));
    expect(all).toMatchObject({ count: 3, events: [{ lead_id: leadIds.stranger }] });
    const bad = await app.server.inject({ url: '/api/admin/user-sessions?user_id=abc', headers: as(root) });
    expect(bad.statusCode).toBe(422);
  });

  it('lists every repository across installations, searchable', async () => {
    const all = adminRepositoryListSchema.parse(await get('/api/admin/repositories'));
    expect(all.count).toBe(2);
    expect(all.repositories).toEqual([
      expect.objectContaining({
        full_name: 'acme/webapp',
        installation_id: 41,
        installation_name: 'acme',
        agents: 2,
        removed: false,
      }),
      expect.objectContaining({ full_name: 'zeta/app', installation_name: 'zeta', agents: 2 }),
    ]);
    const zeta = adminRepositoryListSchema.parse(await get('/api/admin/repositories?search=ZET'));
    expect(zeta.repositories.map((r) => r.full_name)).toEqual(['zeta/app']);
    expect(adminRepositoryListSchema.parse(await get('/api/admin/repositories?search=_')).count).toBe(0);
  });
});
