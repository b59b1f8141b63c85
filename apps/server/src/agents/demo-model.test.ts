import type { EmbeddedRunner } from '@tandem/agent';
import { conversationResponseSchema, createAgentResponseSchema, modelListSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/schema.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

describe('the offline demo model on a server without model keys', () => {
  // No provider key: the configuration offers the demo model and makes it the default.
  const testApp = useTestApp('pglite', { codeHost: true, agents: { models: loadConfig({}).models } });
  let app: TestApp;
  let bob: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    bob = await app.signIn({
      username: 'bob',
      installations: [{ id: 1000, name: 'acme', role: 'member', repos: ['acme/webapp'] }],
    });
  });

  it('is offered as the default, free and available', async () => {
    const res = await app.server.inject({ url: '/api/models', headers: as(bob) });
    const list = modelListSchema.parse(res.json());
    expect(list.default_model).toBe('demo');
    const demo = list.models.find((m) => m.key === 'demo');
    expect(demo).toMatchObject({ available: true, label: 'Demo (offline, free)' });
    expect(list.models.filter((m) => m.available).map((m) => m.key)).toEqual(['demo']);
  });

  it('edits as asked, runs the tests, pushes and opens a pull request, for free', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(bob),
      // No model: the server's default, which is the demo model here.
      payload: { body: 'Please replace "Hello" with "Hi" in src/greet.js' },
    });
    expect(res.statusCode).toBe(200);
    const { agent_id } = createAgentResponseSchema.parse(res.json());
    await (app.runner as EmbeddedRunner).idle(agent_id);

    const page = conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agent_id}`,
          headers: as(bob),
        })
      ).json(),
    );
    expect(page.conversation.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    const edit = page.conversation.find((i) => i.item_type === 'edit');
    expect(edit).toMatchObject({ lines_added: 1, lines_removed: 1 });
    const stdout = page.conversation
      .filter((i) => i.item_type === 'shell_message' && i.message_type === 'stdout')
      .map((i) => String(i.message))
      .join('');
    // The seeded test expects "Hello": the demo reports the failure honestly.
    expect(stdout).toMatch(/fail 1/);
    const commit = page.conversation.find((i) => i.item_type === 'commit');
    expect(commit).toMatchObject({ repository_name: 'acme/webapp' });
    const complete = page.conversation.find((i) => i.action_type === 'TaskCompleteEvent');
    expect(String(complete?.task_summary)).toMatch(/Changed src\/greet\.js\. `npm test` failed/);

    const token = await app.codeHost!.issueInstallationToken(1000);
    const api = (path: string) =>
      fetch(`${app.codeHost!.apiUrl}${path}`, { headers: { authorization: `token ${token}` } }).then((r) =>
        r.json(),
      );
    const pulls = (await api('/repos/acme/webapp/pulls?state=open')) as {
      title: string;
      body: string;
      head: { ref: string; sha: string };
    }[];
    const pull = pulls.find((p) => p.head.ref === commit!.branch);
    expect(pull?.title).toBe('Demo: Please replace "Hello" with "Hi" in src/greet.js');
    expect(pull?.body).toMatch(/no AI was involved/);
    const file = (await api(`/repos/acme/webapp/contents/src/greet.js?ref=${pull!.head.sha}`)) as {
      content: string;
    };
    expect(Buffer.from(file.content, 'base64').toString()).toContain('`Hi, ${name}!`');

    // Free: nothing was charged.
    const agent = (
      await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agent_id}`, headers: as(bob) })
    ).json() as { credits_spent?: number; title: string };
    expect(agent.title).toMatch(/^Demo: Please replace/);
    if (agent.credits_spent !== undefined) expect(agent.credits_spent).toBe(0);
  });
});

describe('the demo model with a provider key', () => {
  it('is hidden unless TANDEM_DEMO_MODEL=on, and never the default then', () => {
    const keyed = loadConfig({ ANTHROPIC_API_KEY: 'sk-test' }).models;
    expect(keyed.demoModel).toBe(false);
    expect(keyed.defaultModel).toBe('sonnet-4-5');
    const on = loadConfig({ ANTHROPIC_API_KEY: 'sk-test', TANDEM_DEMO_MODEL: 'on' }).models;
    expect(on.demoModel).toBe(true);
    expect(on.defaultModel).toBe('sonnet-4-5');
    expect(loadConfig({ TANDEM_DEMO_MODEL: 'off' }).models).toMatchObject({
      demoModel: false,
      defaultModel: 'sonnet-4-5',
    });
    expect(() => loadConfig({ TANDEM_DEMO_MODEL: 'maybe' })).toThrow(/TANDEM_DEMO_MODEL/);
  });
});
