import { agents, spiceMessages } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { conversationResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { useScriptedAgents, type ScriptedAgents } from '../testing/scripted-agents.js';
import type { TestApp, TestUser } from '../testing/test-app.js';

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
 * A step's row brings the user messages waiting to be fed (issue 15: no read of their own per
 * step). A message sent after that read, while the model answers or a tool runs, must still reach
 * the model: at the next step, or through the run its sender queued once this one ended.
 */
describe.each(testDatabaseKinds())('a message sent while an agent works on %s', (kind) => {
  const setUp = useScriptedAgents(kind, scriptFile);
  let app: TestApp;
  let ada: TestUser;
  let as: ScriptedAgents['as'];
  let create: ScriptedAgents['create'];

  beforeAll(() => {
    ({ app, ada, as, create } = setUp());
  });

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
