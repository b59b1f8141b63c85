import type { EmbeddedRunner } from '@tandem/agent';
import { recordTransaction } from '@tandem/agent';
import { agents, installations, repositories, spiceMessages } from '@tandem/db';
import { conversationResponseSchema, createAgentResponseSchema } from '@tandem/shared';
import { and, eq, isNotNull } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const done = (summary: string) => ({ tool_calls: [{ name: 'task_complete', args: { summary } }] });
/** Scripted price: $1 per million input tokens, so 100 000 tokens cost 10 cents (+19.5 %). */
const expensive = { input: 100_000, cached: 0, output: 10, reasoning: 0 };

const scriptFile = writeScriptFile([
  {
    match: 'budget:',
    steps: [
      {
        text: 'Looking around.',
        tool_calls: [{ name: 'git_grep', args: { pattern: 'add' } }],
        usage: expensive,
      },
      done('Finished after the budget was raised.'),
    ],
  },
  {
    match: 'credits:',
    steps: [
      { tool_calls: [{ name: 'git_grep', args: { pattern: 'add' } }], usage: expensive },
      done('never reached'),
    ],
  },
  {
    match: 'summarize:',
    steps: [
      {
        tool_calls: [{ name: 'git_grep', args: { pattern: 'greet' } }],
        usage: { input: 200_000, cached: 0, output: 10, reasoning: 0 },
      },
      done('Done after a summary.'),
    ],
  },
  {
    match: 'slow:',
    steps: [{ tool_calls: [{ name: 'run_command', args: { command: 'sleep 30' } }] }, done('never reached')],
  },
]);

describe('agent runs: budget, credits, summarization, interrupt', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const runner = () => app.runner as EmbeddedRunner;

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  const balance = async () =>
    Number(
      (await app.database.db.select().from(installations).where(eq(installations.id, 1000)))[0]!
        .creditBalance,
    );
  const setBalance = async (units: number) => {
    await recordTransaction(app.database.db, {
      installationId: 1000,
      amount: units - (await balance()),
      kind: 'other',
      description: 'test adjustment',
    });
  };
  beforeEach(async () => {
    await setBalance(300_000);
    await app.database.db.update(repositories).set({ creditLimit: 1500 });
  });

  const create = async (body: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body, model: 'scripted' },
    });
    return res;
  };
  const message = (agentId: string, text: string) =>
    app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agentId}`,
      headers: as(ada),
      payload: { message: text },
    });
  const feed = async (agentId: string) =>
    conversationResponseSchema.parse(
      (
        await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${agentId}`, headers: as(ada) })
      ).json(),
    ).conversation;
  const actionsOf = async (agentId: string) =>
    (await feed(agentId))
      .filter((i) => i.item_type === 'action' || i.item_type === 'over_budget')
      .map((i) => i.action_type);

  it('answers a model whose provider has no key here with an ErrorEvent, and keeps running others', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(ada),
      payload: { body: 'Use Claude please', model: 'sonnet-4-5' },
    });
    const { agent_id } = createAgentResponseSchema.parse(res.json());
    await runner().idle(agent_id);
    const errors = (await feed(agent_id)).filter((i) => i.action_type === 'ErrorEvent');
    expect(errors.map((e) => e.exception)).toEqual([
      'Sonnet 4.5 is unavailable: ANTHROPIC_API_KEY is not set on this server',
    ]);
    const meta = (
      await app.server.inject({ url: `/api/agent/metadata?trajectory_id=${agent_id}`, headers: as(ada) })
    ).json();
    expect(meta).toMatchObject({ status: 'paused', credits_spent: 0 });
  });

  it('pauses over the per-agent budget and continues after a new message', async () => {
    await app.database.db.update(repositories).set({ creditLimit: 1 });
    const agent_id = await createScriptedAgent(app, ada, 'budget: look around');
    await runner().idle(agent_id);
    const items = await feed(agent_id);
    const over = items.find((i) => i.item_type === 'over_budget');
    expect(over).toMatchObject({ action_type: 'OverBudgetEvent', credit_limit: 1 });
    expect(await actionsOf(agent_id)).toEqual(['GitGrepSearchEvent', 'OverBudgetEvent']);

    await app.database.db.update(repositories).set({ creditLimit: 1500 });
    expect((await message(agent_id, 'go on')).statusCode).toBe(200);
    await runner().idle(agent_id);
    expect(await actionsOf(agent_id)).toEqual(['GitGrepSearchEvent', 'OverBudgetEvent', 'TaskCompleteEvent']);
  });

  it('stops at zero credits with OutOfCreditsEvent and answers 402 to new messages and agents', async () => {
    // Enough for one call, not two.
    await setBalance(500);
    const agent_id = await createScriptedAgent(app, ada, 'credits: look around');
    await runner().idle(agent_id);
    expect(await actionsOf(agent_id)).toEqual(['GitGrepSearchEvent', 'OutOfCreditsEvent']);
    expect(await balance()).toBeLessThanOrEqual(0);
    // The overdraft is at most the one call already under way.
    expect(await balance()).toBeGreaterThan(-2000);

    const refused = await message(agent_id, 'please continue');
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ detail: 'Your installation is out of credits. Buy more now.' });
    const before = (await feed(agent_id)).length;
    expect((await feed(agent_id)).length).toBe(before);
    expect((await create('credits: another')).statusCode).toBe(402);
  });

  it('summarizes when the context passes the summarization limit and goes on', async () => {
    const agent_id = await createScriptedAgent(app, ada, 'summarize: search greet');
    await runner().idle(agent_id);
    expect(await actionsOf(agent_id)).toEqual([
      'GitGrepSearchEvent',
      'SummaryEvent',
      'SummaryAppliedEvent',
      'TaskCompleteEvent',
    ]);
    const summary = (await feed(agent_id)).find((i) => i.action_type === 'SummaryEvent')!;
    expect(String(summary.summary_content)).toMatch(/^Summary: /);
    const folded = await app.database.db
      .select()
      .from(spiceMessages)
      .where(and(eq(spiceMessages.agentId, agent_id), isNotNull(spiceMessages.summarizedAt)));
    expect(folded.length).toBeGreaterThanOrEqual(3);
  });

  it('interrupts a running command and pauses with an InterruptEvent', async () => {
    const agent_id = await createScriptedAgent(app, ada, 'slow: wait for it');
    // Wait until the shell is running.
    for (let i = 0; i < 100 && !(await feed(agent_id)).some((item) => item.item_type === 'shell'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const started = Date.now();
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agent/interrupt',
      headers: as(ada),
      payload: { trajectory_id: agent_id },
    });
    expect(res.statusCode).toBe(200);
    await runner().idle(agent_id);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await actionsOf(agent_id)).at(-1)).toBe('InterruptEvent');
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, agent_id));
    expect(row).toMatchObject({ status: 'paused', interruptRequested: false });
  });
});
