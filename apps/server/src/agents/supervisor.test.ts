import type { AgentRunner } from '@tandem/agent';
import { agents, conversationItems, repositories, spiceMessages, users } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { agentMetadataSchema, createAgentResponseSchema, SUNSET_NO_NEW_AGENTS } from '@tandem/shared';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { connectCodeHost } from '../testing/code-host-product.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { insertAgent } from '../services/agents/insert-agent.js';
import {
  MAX_SUB_AGENTS,
  startSubAgent,
  SUB_AGENT_MESSAGES,
} from '../services/supervisors/start-sub-agent.js';
import { modelChoices } from '../routes/models.js';
import { loadConfig } from '../config/schema.js';
import { messageSubAgent, SUB_AGENT_NOT_FOUND } from '../services/supervisors/message-sub-agent.js';
import { SunsetGate } from '../services/sunset-gate.js';

const call = (name: string, args: Record<string, unknown> = {}) => ({ tool_calls: [{ name, args }] });
const start = (repository: string, task: string) => ({ name: 'start_sub_agent', args: { repository, task } });
const done = (summary: string) => call('task_complete', { summary });
/** A sub-agent's whole job: a new file, a push, a pull request, a report. */
const openPull = (file: string, title: string) => [
  call('edit_file', { path: file, old_string: '', new_string: `# ${title}\n` }),
  call('commit_and_push', { message: title }),
  call('open_pull_request', { title, body: `Adds ${file}.` }),
  done(`Added ${file}; the pull request is open.`),
];

const scriptFile = writeScriptFile([
  {
    match: 'supervise:',
    steps: [
      {
        tool_calls: [
          start('acme/webapp', 'sub-one: write docs/one.md'),
          start('acme/webapp', 'sub-two: write docs/two.md'),
        ],
      },
      // Woken by the first report, then the second (or both at once: the wait then returns).
      call('wait_for_sub_agents'),
      call('wait_for_sub_agents'),
      call('wait_for_sub_agents'),
      done('Both sub-agents opened their pull requests.'),
    ],
  },
  // Its last step answers the supervisor's later message.
  { match: 'sub-one:', steps: [...openPull('docs/one.md', 'Docs one'), done('Second pass done.')] },
  { match: 'sub-two:', steps: openPull('docs/two.md', 'Docs two') },
  {
    match: 'stopper:',
    steps: [
      { tool_calls: [start('acme/webapp', 'slow-sub: sleep a while')] },
      call('wait_for_sub_agents'),
      done('never reached'),
    ],
  },
  { match: 'slow-sub:', steps: [call('run_command', { command: 'sleep 30' }), done('never reached')] },
  {
    match: 'reach:',
    steps: [
      { tool_calls: [start('other/secret', 'hostile: read their code'), start('beta/site', 'hostile: b')] },
      done('Could not reach them.'),
    ],
  },
  {
    match: 'many:',
    steps: [{ tool_calls: [start('acme/webapp', 'hostile: one too many')] }, done('Stopped.')],
  },
  {
    // One call that costs more than the installation's free credits, then a start that must fail.
    match: 'broke:',
    steps: [
      {
        tool_calls: [start('ada/playground', 'hostile: on no credits')],
        usage: { input: 40_000_000, cached: 0, output: 10, reasoning: 0 },
      },
      done('never reached'),
    ],
  },
  { match: 'hostile:', steps: [done('should never run')] },
]);

/**
 * Supervisor agents (issue 21): an admin's supervisor starts sub-agents through the same service as a
 * person's create, hears back from them, stops them when stopped, and cannot reach past its creator's
 * installation or the sub-agent limit.
 */
describe.each(testDatabaseKinds())('supervisor agents on %s', (kind) => {
  const testApp = useTestApp(kind, { codeHost: true, agents: { models: { scriptedModelFile: scriptFile } } });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      admin: true,
      installations: [
        { id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] },
        { id: 3000, name: 'beta', role: 'admin', repos: ['beta/site'] },
        // Its credits are spent by the last test only.
        { id: 1001, name: 'ada', role: 'admin', repos: ['ada/playground'] },
      ],
    });
    bob = await app.signIn({
      username: 'bob',
      installations: [
        { id: 1000, name: 'acme', role: 'member' },
        { id: 2000, name: 'other', role: 'admin', repos: ['other/secret'] },
      ],
    });
    await connectCodeHost(app, {
      users: { ada: 1 },
      repositories: { 'acme/webapp': 200, 'ada/playground': 202 },
    });
  });

  const createAs = (user: TestUser, body: string, extra: Record<string, unknown> = {}) =>
    app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(user),
      payload: { body, model: 'scripted', ...extra },
    });
  const supervise = async (body: string) => {
    const res = await createAs(ada, body, { is_supervisor: true });
    expect(res.statusCode).toBe(200);
    return createAgentResponseSchema.parse(res.json()).agent_id;
  };
  const row = async (id: string) =>
    (await app.database.db.select().from(agents).where(eq(agents.id, id)))[0]!;
  const subsOf = (id: string) =>
    app.database.db.select().from(agents).where(eq(agents.supervisorId, id)).orderBy(asc(agents.number));
  const items = (id: string) =>
    app.database.db
      .select()
      .from(conversationItems)
      .where(eq(conversationItems.agentId, id))
      .orderBy(asc(conversationItems.timestamp));
  const toolResults = async (id: string) =>
    (
      await app.database.db
        .select({ content: spiceMessages.content })
        .from(spiceMessages)
        .where(and(eq(spiceMessages.agentId, id), eq(spiceMessages.role, 'tool')))
        .orderBy(asc(spiceMessages.timestamp))
    ).map((r) => JSON.stringify(r.content));
  const metadata = async (id: string) =>
    agentMetadataSchema.parse(
      (await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${id}`, headers: as(ada) })).json(),
    );
  const until30 = <T>(what: string, probe: () => Promise<T | undefined>) =>
    until(what, probe, { timeoutMs: 30_000, intervalMs: 50 });
  const finished = (id: string) =>
    until30(`agent ${id} to finish`, async () => {
      const feed = await items(id);
      const agent = await row(id);
      return agent.status === 'paused' && feed.some((i) => i.actionType === 'TaskCompleteEvent')
        ? true
        : undefined;
    });

  it('refuses supervisor agents to non-admins', async () => {
    const res = await createAs(bob, 'supervise: nothing', { is_supervisor: true });
    expect(res.statusCode).toBe(403);
  });

  it('starts two sub-agents that open pull requests and report back, waking the supervisor', async () => {
    const supervisorId = await supervise('supervise: two docs');
    await finished(supervisorId);
    const subs = await subsOf(supervisorId);
    expect(subs).toHaveLength(2);
    for (const sub of subs) {
      // Made as a person's agent is: the supervisor's creator, its installation, its own branch.
      expect(sub).toMatchObject({ creatorId: ada.id, installationId: 1000, agentType: 'editor' });
      await finished(sub.id);
    }
    const feed = await items(supervisorId);
    const reports = feed.filter((i) => i.actionType === 'sub_agent_report');
    expect(reports.map((r) => r.data.sub_agent_id).sort()).toEqual(subs.map((s) => s.id).sort());
    for (const report of reports) {
      expect(report.data.sub_agent_status).toBe('completed');
      expect(report.data.pull_requests).toEqual([expect.stringMatching(/\/acme\/webapp\/pull\/\d+$/)]);
      expect(String(report.data.task_summary)).toMatch(/^Added docs\/(one|two)\.md/);
    }
    // A report woke the waiting supervisor; its model read the reports as messages.
    expect(feed.some((i) => i.actionType === 'WakeEvent' && i.data.wake_status === 'message')).toBe(true);
    expect((await toolResults(supervisorId)).join('\n')).toContain('Started sub-agent');

    const meta = await metadata(supervisorId);
    expect(meta.title).toBe('Agent Report');
    expect(meta.sub_agents.map((s) => s.id).sort()).toEqual(subs.map((s) => s.id).sort());
    for (const sub of meta.sub_agents) {
      expect(sub.status).toBe('paused');
      expect(sub.sources['acme/webapp']?.[0]?.number).toEqual(expect.any(Number));
    }
    expect((await metadata(subs[0]!.id)).supervisor).toEqual({
      id: supervisorId,
      title: 'Agent Report',
      repo_name: 'acme/webapp',
    });
    // The list carries the hierarchy too.
    const list = (
      await app.server.inject({ url: '/api/agents/acme/webapp?search=', headers: as(ada) })
    ).json() as { agents: { id: string; sub_agents: unknown[] }[] };
    expect(list.agents.find((a) => a.id === supervisorId)?.sub_agents).toHaveLength(2);

    // message_sub_agent's service: only its own sub-agents; the message wakes the sub-agent, whose
    // new report reaches the (finished, so not woken) supervisor.
    const deps = {
      db: app.database.db,
      webUrl: app.codeHost!.url,
      sunset: new SunsetGate(null),
      runner: app.runner as AgentRunner,
    };
    const stranger = (await createAs(bob, 'hostile: not a sub-agent')).json() as { agent_id: string };
    await expect(messageSubAgent(deps, supervisorId, stranger.agent_id, 'Do my bidding')).rejects.toThrow(
      SUB_AGENT_NOT_FOUND,
    );
    let first = subs[0]!;
    for (const sub of subs)
      if (String((await items(sub.id))[0]?.data.message).startsWith('sub-one:')) first = sub;
    await messageSubAgent(deps, supervisorId, first.id, 'One more pass, please.');
    await until30('the second report', async () => {
      const again = (await items(supervisorId)).filter(
        (i) => i.actionType === 'sub_agent_report' && i.data.task_summary === 'Second pass done.',
      );
      return again.length ? true : undefined;
    });
    await (app.runner as AgentRunner).idle(supervisorId);
    expect((await row(supervisorId)).status).toBe('paused');
  });

  it('stops its working sub-agents when it is stopped, and their reports do not wake it', async () => {
    const supervisorId = await supervise('stopper: one slow sub-agent');
    const [sub] = await until30('the sub-agent to run its command', async () => {
      const subs = await subsOf(supervisorId);
      if (!subs[0]) return undefined;
      const shells = (await items(subs[0].id)).filter((i) => i.itemType === 'shell');
      return shells.length ? subs : undefined;
    });
    await until30('the supervisor to wait', async () =>
      (await row(supervisorId)).status === 'waiting' ? true : undefined,
    );
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agent/interrupt',
      headers: as(ada),
      payload: { trajectory_id: supervisorId },
    });
    expect(res.statusCode).toBe(200);
    await until30('the sub-agent to stop', async () =>
      (await row(sub!.id)).status === 'paused' ? true : undefined,
    );
    await (app.runner as AgentRunner).idle(sub!.id);
    await until30('the report', async () =>
      (await items(supervisorId)).find((i) => i.actionType === 'sub_agent_report'),
    );
    await (app.runner as AgentRunner).idle(supervisorId);
    expect((await items(sub!.id)).some((i) => i.actionType === 'InterruptEvent')).toBe(true);
    const report = (await items(supervisorId)).find((i) => i.actionType === 'sub_agent_report')!;
    expect(report.data.sub_agent_status).toBe('stopped');
    expect(await row(supervisorId)).toMatchObject({ status: 'paused', wakeAt: null });
    expect((await items(supervisorId)).some((i) => i.actionType === 'TaskCompleteEvent')).toBe(false);
  });

  it("refuses repositories outside the supervisor's installation", async () => {
    const supervisorId = await supervise('reach: other installations');
    await finished(supervisorId);
    const results = await toolResults(supervisorId);
    // bob's installation (ada is no member) and ada's other one: the same answer.
    expect(results.filter((r) => r.includes('Error: Repository not found'))).toHaveLength(2);
    expect(await subsOf(supervisorId)).toEqual([]);
  });

  it(`starts at most ${MAX_SUB_AGENTS} sub-agents`, async () => {
    const { db } = app.database;
    const [repo] = await db.select().from(repositories).where(eq(repositories.fullName, 'acme/webapp'));
    const spec = (message: string) => ({
      repositoryId: repo!.id,
      installationId: 1000,
      creatorId: ada.id,
      model: { key: 'scripted', defaultLimit: 200_000 },
      reviewModel: null,
      firstMessage: { actionType: 'website_request', data: { message, username: 'ada' } },
    });
    // Made directly, and run only once its earlier sub-agents exist (running ten would be slow).
    const { agentId: supervisorId } = await insertAgent(db, {
      ...spec('many: more than allowed'),
      agentType: 'supervisor',
    });
    for (let n = 0; n < MAX_SUB_AGENTS; n++) {
      const { agentId } = await insertAgent(db, { ...spec(`earlier ${n}`), supervisorId });
      await db.update(agents).set({ status: 'paused' }).where(eq(agents.id, agentId));
    }
    (app.runner as AgentRunner).enqueue(supervisorId);
    await finished(supervisorId);
    expect((await toolResults(supervisorId)).join('\n')).toContain(SUB_AGENT_MESSAGES.limit);
    expect(await subsOf(supervisorId)).toHaveLength(MAX_SUB_AGENTS);
  });

  it("spends its installation's credits: with none left, no sub-agent starts", async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/ada/playground',
      headers: as(ada),
      payload: { body: 'broke: spend it all', model: 'scripted', is_supervisor: true },
    });
    expect(res.statusCode).toBe(200);
    const supervisorId = createAgentResponseSchema.parse(res.json()).agent_id;
    await until30('the supervisor to run out of credits', async () =>
      (await row(supervisorId)).status === 'paused' &&
      (await items(supervisorId)).some((i) => i.actionType === 'OutOfCreditsEvent')
        ? true
        : undefined,
    );
    expect((await toolResults(supervisorId)).join('\n')).toContain(
      'Error: Your installation is out of credits. Buy more now.',
    );
    expect(await subsOf(supervisorId)).toEqual([]);
  });

  it('starts no sub-agent once sunset mode closed, nor for a creator who is no admin any more', async () => {
    const { db } = app.database;
    const [repo] = await db.select().from(repositories).where(eq(repositories.fullName, 'acme/webapp'));
    const { agentId: supervisorId } = await insertAgent(db, {
      repositoryId: repo!.id,
      installationId: 1000,
      creatorId: ada.id,
      model: { key: 'scripted', defaultLimit: 200_000 },
      reviewModel: null,
      agentType: 'supervisor',
      firstMessage: { actionType: 'website_request', data: { message: 'not run', username: 'ada' } },
    });
    await db.update(agents).set({ status: 'paused' }).where(eq(agents.id, supervisorId));
    const deps = (sunset: SunsetGate) => ({
      db,
      webUrl: app.codeHost!.url,
      sunset,
      // Not reached: both refusals come before the model is chosen.
      models: modelChoices(loadConfig({}).models),
      runner: { enqueue: () => undefined },
    });
    const closed = new SunsetGate(
      { last_day: '2020-01-01', shutdown_day: '2020-02-01', credits_buyable: false, refund_note: '' },
      () => new Date('2021-01-01T00:00:00Z'),
    );
    const task = { repository: 'acme/webapp', task: 'hostile: too late' };
    await expect(startSubAgent(deps(closed), supervisorId, task)).rejects.toThrow(SUNSET_NO_NEW_AGENTS);
    await db.update(users).set({ admin: false }).where(eq(users.id, ada.id));
    try {
      await expect(startSubAgent(deps(new SunsetGate(null)), supervisorId, task)).rejects.toThrow(
        SUB_AGENT_MESSAGES.notAdmin,
      );
    } finally {
      await db.update(users).set({ admin: true }).where(eq(users.id, ada.id));
    }
    expect(await subsOf(supervisorId)).toEqual([]);
  });
});
