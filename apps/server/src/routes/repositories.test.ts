import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { agents, memberships, repositories, scriptLogs } from '@tandem/db';
import {
  agentMetadataSchema,
  createAgentResponseSchema,
  LOG_MESSAGES,
  REPOSITORY_SETTINGS_MESSAGES,
  repositoryAccessSchema,
  repositorySettingsSchema,
  SECRET_MESSAGES,
  scriptLogListSchema,
  scriptLogSchema,
} from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { CREATE_AGENT_WRITE_NEEDED } from './agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * Against the real local code host: its seed makes ada admin and bob a member (write) of the acme
 * organisation, gives everyone read on ada's public playground and nobody else a look at acme's
 * private repositories (eve).
 */
describe('repository access, settings and logs', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    access: 'code-host',
    models: { anthropicApiKey: 'test-key-never-used' },
  });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [
        { id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp', 'acme/api'] },
        { id: 1001, name: 'ada', role: 'admin', repos: ['ada/playground'] },
      ],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: 1000, name: 'acme', role: 'member' }] });
    eve = await app.signIn({ username: 'eve' });
    // As the code host-sync would record it: the playground is public.
    await app.database.db
      .update(repositories)
      .set({ private: false })
      .where(eq(repositories.fullName, 'ada/playground'));
  });

  const get = (user: TestUser | null, url: string) =>
    app.server.inject({ url, headers: user ? as(user) : {} });
  const patch = (user: TestUser, repo: string, payload: unknown) =>
    app.server.inject({
      method: 'PATCH',
      url: `/api/settings/repository/${repo}`,
      headers: as(user),
      payload: payload as Record<string, unknown>,
    });
  const settingsOf = async (repo: string) =>
    repositorySettingsSchema.parse((await get(ada, `/api/settings/repository/${repo}`)).json());

  it("answers the caller's access level from the code host, and 404 without one", async () => {
    const level = async (user: TestUser, repo: string) => {
      const res = await get(user, `/api/repositories/${repo}/access`);
      return res.statusCode === 200 ? repositoryAccessSchema.parse(res.json()).access_level : res.statusCode;
    };
    expect(await level(ada, 'acme/webapp')).toBe('admin');
    expect(await level(bob, 'acme/webapp')).toBe('write');
    expect(await level(bob, 'ADA/Playground')).toBe('read');
    expect(await level(eve, 'acme/webapp')).toBe(404);
    expect(await level(ada, 'acme/nothing-here')).toBe(404);
    expect((await get(null, '/api/repositories/acme/webapp/access')).statusCode).toBe(401);
    expect((await get(ada, '/api/repositories/acme/..%2F..%2Fetc/access')).statusCode).toBe(422);
  });

  it('answers 404 from every repository-scoped API to a user without access', async () => {
    for (const url of [
      '/api/agents/acme/webapp',
      '/api/agents/supervisors/acme/webapp',
      '/api/secrets/acme/webapp/get-secrets',
      '/api/settings/repository/acme/webapp',
      '/api/repositories/acme/webapp/logs',
    ]) {
      expect((await get(eve, url)).statusCode, url).toBe(404);
    }
    const writes = [
      { method: 'POST' as const, url: '/api/agents/create-agent/acme/webapp', payload: { body: 'Hi' } },
      {
        method: 'POST' as const,
        url: '/api/secrets/acme/webapp/add-secret',
        payload: { key: 'A', value: 'b' },
      },
      { method: 'PATCH' as const, url: '/api/settings/repository/acme/webapp', payload: { auto_fix: false } },
    ];
    for (const write of writes) {
      const res = await app.server.inject({ ...write, headers: as(eve) });
      expect(res.statusCode, write.url).toBe(404);
    }
    expect((await settingsOf('acme/webapp')).auto_fix).toBe(true);
  });

  it('lets read access see the repository but not change it', async () => {
    expect((await get(bob, '/api/agents/ada/playground')).statusCode).toBe(200);
    expect((await get(bob, '/api/repositories/ada/playground/logs')).statusCode).toBe(200);
    const settings = await get(bob, '/api/settings/repository/ada/playground');
    expect(repositorySettingsSchema.parse(settings.json())).toMatchObject({
      github_public: true,
      installation_id: 1001,
    });

    const refused = await patch(bob, 'ada/playground', { agents_public: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(REPOSITORY_SETTINGS_MESSAGES.writeNeeded);
    // Authorisation comes first: a bad body from a reader is still a 403.
    expect((await patch(bob, 'ada/playground', { nonsense: 1 })).statusCode).toBe(403);

    const secrets = await get(bob, '/api/secrets/ada/playground/get-secrets');
    expect(secrets.statusCode).toBe(403);
    expect(secrets.json().detail).toBe(SECRET_MESSAGES.writeNeeded);

    const create = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/ada/playground',
      headers: as(bob),
      payload: { body: 'Hi' },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().detail).toBe(CREATE_AGENT_WRITE_NEEDED);
  });

  it('creates agents only for members of the installation, even with write access', async () => {
    // Agents spend the installation's credits: write access on the code host alone is not enough.
    const bobs = and(eq(memberships.userId, bob.id), eq(memberships.installationId, 1000));
    const [membership] = await app.database.db.delete(memberships).where(bobs).returning();
    try {
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/agents/create-agent/acme/webapp',
        headers: as(bob),
        payload: { body: 'Hi' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Repository not found');
      expect(await app.database.db.select().from(agents).where(eq(agents.creatorId, bob.id))).toEqual([]);
    } finally {
      await app.database.db.insert(memberships).values(membership!);
    }
  });

  it('round-trips every setting, one field per PATCH, for write access', async () => {
    const changes: Record<string, unknown>[] = [
      { default_model: 'opus-4-1' },
      { default_review_model: 'none' },
      { always_ask: true },
      { always_review: false },
      { credit_limit: 2500 * 100 },
      { agents_public: true },
      { auto_fix: false },
    ];
    for (const change of changes) {
      const res = await patch(bob, 'acme/webapp', change);
      expect(res.statusCode, JSON.stringify(change)).toBe(200);
      expect(repositorySettingsSchema.parse(res.json())).toMatchObject(change);
    }
    expect(await settingsOf('acme/webapp')).toEqual({
      default_model: 'opus-4-1',
      default_review_model: 'none',
      always_ask: true,
      always_review: false,
      credit_limit: 250_000,
      agents_public: true,
      github_public: false,
      auto_fix: false,
      installation_id: 1000,
    });
    // Stored in whole credits, where the agent runtime reads the budget.
    const [row] = await app.database.db
      .select({ creditLimit: repositories.creditLimit })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    expect(row!.creditLimit).toBe(2500);
    // Back to the defaults.
    expect((await patch(ada, 'acme/webapp', { default_model: null })).json().default_model).toBeNull();
  });

  it('refuses bad changes with 422 and the spec texts, storing nothing', async () => {
    const before = await settingsOf('acme/api');
    const refusal = async (payload: unknown) => {
      const res = await patch(ada, 'acme/api', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      return (res.json() as { detail: { msg: string }[] }).detail.map((d) => d.msg);
    };
    expect(await refusal({ credit_limit: 9 * 100 })).toContain('Minimum 10');
    expect(await refusal({ credit_limit: 100_001 * 100 })).toContain('Maximum 100000');
    expect(await refusal({ credit_limit: 1500 * 100 + 1 })).toContain(
      REPOSITORY_SETTINGS_MESSAGES.wholeCents,
    );
    expect(await refusal({ credit_limit: '1500' })).toHaveLength(1);
    expect(await refusal({ always_ask: true, auto_fix: false })).toContain(
      REPOSITORY_SETTINGS_MESSAGES.oneField,
    );
    expect(await refusal({})).toContain(REPOSITORY_SETTINGS_MESSAGES.oneField);
    await refusal({ github_public: true });
    await refusal({ installation_id: 1 });
    await refusal({ default_model: 'no-such-model' });
    await refusal({ default_model: 'gpt-5-fast' }); // known, but no OpenAI key on this server
    await refusal({ default_model: 'sonnet-4' }); // admin-only, and ada is not a product admin
    await refusal({ default_model: '' });
    await refusal([]);
    expect((await patch(ada, 'acme/api', { credit_limit: 10 * 100 })).statusCode).toBe(200);
    expect((await patch(ada, 'acme/api', { credit_limit: 100_000 * 100 })).statusCode).toBe(200);
    expect((await patch(ada, 'acme/api', { credit_limit: before.credit_limit })).statusCode).toBe(200);
    expect(await settingsOf('acme/api')).toEqual(before);
  });

  it("gives a new agent the repository's default model, reviewer and budget", async () => {
    expect((await patch(ada, 'acme/api', { default_model: 'opus-4-1' })).statusCode).toBe(200);
    expect((await patch(ada, 'acme/api', { default_review_model: 'none' })).statusCode).toBe(200);
    const create = (payload: Record<string, unknown>) =>
      app.server
        .inject({ method: 'POST', url: '/api/agents/create-agent/acme/api', headers: as(bob), payload })
        .then((res) => createAgentResponseSchema.parse(res.json()).agent_id);
    const metadata = async (id: string) =>
      agentMetadataSchema.parse((await get(bob, `/api/agent/metadata?trajectory_id=${id}`)).json());

    expect(await metadata(await create({ body: 'Use the defaults' }))).toMatchObject({
      model: 'opus-4-1',
      review_model: null,
    });
    // What the request names wins over the repository's defaults.
    expect(
      await metadata(await create({ body: 'My choice', model: 'sonnet-4-5', review_model: 'opus-4-1' })),
    ).toMatchObject({ model: 'sonnet-4-5', review_model: 'opus-4-1' });
    // A default reviewer 'Default' (null) is the product's reviewer.
    expect((await patch(ada, 'acme/api', { default_review_model: null })).statusCode).toBe(200);
    expect((await metadata(await create({ body: 'Reviewed' }))).review_model).toBe('gpt-5-medium');
  });

  it('lists script logs newest first in pages of 25 and shows one log', async () => {
    const [repo] = await app.database.db
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    const start = Date.parse('2026-01-01T00:00:00Z');
    const ids = await app.database.db
      .insert(scriptLogs)
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          repositoryId: repo!.id,
          path: i % 2 ? '.tandem/format.sh' : '.tandem/setup.sh',
          statusCode: i === 29 ? 1 : 0,
          startedAt: new Date(start + i * 1000),
          durationMs: 1500,
          scriptContents: 'echo hi',
          output: `run ${i}`,
        })),
      )
      .returning({ id: scriptLogs.id });

    const page = async (user: TestUser, query = '') =>
      scriptLogListSchema.parse((await get(user, `/api/repositories/acme/webapp/logs${query}`)).json());
    const first = await page(bob);
    expect(first.total).toBe(30);
    expect(first.logs).toHaveLength(25);
    expect(first.logs[0]).toMatchObject({ id: ids[29]!.id, status_code: 1, repo_name: 'acme/webapp' });
    const second = await page(bob, '?page=2');
    expect(second.logs.map((l) => l.id)).toEqual(
      ids
        .slice(0, 5)
        .map((r) => r.id)
        .reverse(),
    );
    expect((await page(bob, '?page=3')).logs).toEqual([]);
    for (const bad of ['?page=0', '?page=x', '?page_size=0', '?page_size=101']) {
      expect((await get(bob, `/api/repositories/acme/webapp/logs${bad}`)).statusCode, bad).toBe(422);
    }

    const one = await get(bob, `/api/scripts/log/${ids[3]!.id}`);
    expect(scriptLogSchema.parse(one.json())).toMatchObject({
      path: '.tandem/format.sh',
      output: 'run 3',
      duration: 1.5,
      repo_name: 'acme/webapp',
    });
    const hidden = await get(eve, `/api/scripts/log/${ids[3]!.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().detail).toBe(LOG_MESSAGES.fetchFailed);
    expect((await get(bob, `/api/scripts/log/${randomUUID()}`)).statusCode).toBe(404);
    expect((await get(bob, '/api/scripts/log/not-a-uuid')).statusCode).toBe(422);
  });
});
