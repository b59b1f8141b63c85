import { agents, spiceMessages } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { conversationResponseSchema, createAgentResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([
  // The first answer takes a while: the follow-up arrives while the model is at work.
  { match: 'answer:', steps: [{ text: 'First answer.', delay_ms: 1_500 }, { text: 'Second answer.' }] },
  {
    match: 'command:',
    steps: [
      { tool_calls: [{ name: 'run_command', args: { command: 'sleep 1.5; echo slept' } }] },
      { text: 'The command ran.' },
    ],
  },
]);

/**
 * A step reads user messages only when its agent's row says some wait (issue 15: one read fewer per
 * step). A message sent while the model answers, or while a tool runs, must still reach the model:
 * at the next step, or through the run its sender queued once this one ended.
 */
describe.each(testDatabaseKinds())('a message sent while an agent works on %s', (kind) => {
  const testApp = useTestApp(kind, { codeHost: true, agents: { models: { scriptedModelFile: scriptFile } } });
  let app: TestApp;
  let ada: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
  });

  const create = async (body: string) =>
    createAgentResponseSchema.parse(
      (
        await app.server.inject({
          method: 'POST',
          url: '/api/agents/create-agent/acme/webapp',
          headers: as(ada),
          payload: { body, model: 'scripted' },
        })
      ).json(),
    ).agent_id;
  const spice = (id: string) =>
    app.database.db
      .select({ role: spiceMessages.role, content: spiceMessages.content })
      .from(spiceMessages)
      .where(eq(spiceMessages.agentId, id))
      .orderBy(spiceMessages.timestamp);
  const send = async (id: string, message: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${id}`,
      headers: as(ada),
      payload: { message },
    });
    expect(res.statusCode).toBe(200);
  };
  const pausedWith = (id: string, text: string) =>
    until(
      `agent ${id} to answer "${text}" and pause`,
      async () => {
        const [row] = await app.database.db.select().from(agents).where(eq(agents.id, id));
        if (row?.status !== 'paused') return undefined;
        const items = conversationResponseSchema.parse(
          (
            await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${id}`, headers: as(ada) })
          ).json(),
        ).conversation;
        return items.some((i) => i.item_type === 'message' && i.message === text) ? items : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    );
  const userTexts = async (id: string) =>
    (await spice(id))
      .filter((m) => m.role === 'user')
      .map((m) => JSON.stringify(m.content))
      .join('\n');

  it('feeds a message sent during a model call to the model', async () => {
    const id = await create('answer: say something');
    // The first message is fed, so the model's slow first answer is under way.
    await until('the first message to be fed', async () => ((await spice(id)).length ? true : undefined));
    await send(id, 'Also mention the tests.');
    const items = await pausedWith(id, 'Second answer.');
    expect(
      items.filter((i) => i.item_type === 'message' && i.role === 'assistant').map((i) => i.message),
    ).toEqual(['First answer.', 'Second answer.']);
    expect(await userTexts(id)).toContain('Also mention the tests.');
  });

  it('feeds a message sent while a tool runs, after the tool result', async () => {
    const id = await create('command: run something slow');
    await until('the command to start', async () =>
      (await spice(id)).some((m) => m.role === 'assistant') ? true : undefined,
    );
    await send(id, 'And tell me when it is done.');
    await pausedWith(id, 'The command ran.');
    const roles = (await spice(id)).map((m) => m.role);
    // The message never lands between the tool call and its result.
    expect(roles.slice(0, 3)).toEqual(['user', 'assistant', 'tool']);
    expect(await userTexts(id)).toContain('And tell me when it is done.');
  });
});
