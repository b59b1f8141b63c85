import type { AgentRunner } from '@tandem/agent';
import { agents } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { conversationResponseSchema, statusCountsSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { useScriptedAgents, type ScriptedAgents } from '../testing/scripted-agents.js';
import type { TestApp, TestUser } from '../testing/test-app.js';

const done = (summary: string) => ({ tool_calls: [{ name: 'task_complete', args: { summary } }] });
const wait = (seconds: number) => ({ tool_calls: [{ name: 'wait', args: { seconds } }] });

const scriptFile = writeScriptFile([
  { match: 'nap:', steps: [{ text: 'Waiting for CI.', ...wait(1) }, done('Woke on time.')] },
  { match: 'long:', steps: [wait(3600), done('Woken by a message.')] },
  { match: 'stop:', steps: [wait(3600), done('never reached')] },
]);

/**
 * The wait tool ends the run: the agent holds no runner slot while it waits (status 'waiting',
 * counted as running), and its timer, a new message or Stop ends the wait. On Postgres the wake is
 * a graphile-worker job; on PGlite a timer of the embedded runner.
 */
describe.each(testDatabaseKinds())('agents that wait on %s', (kind) => {
  const setUp = useScriptedAgents(kind, scriptFile);
  let app: TestApp;
  let ada: TestUser;
  let as: ScriptedAgents['as'];
  let create: ScriptedAgents['create'];

  beforeAll(() => {
    ({ app, ada, as, create } = setUp());
  });

  const row = async (id: string) =>
    (await app.database.db.select().from(agents).where(eq(agents.id, id)))[0]!;
  const actions = async (id: string) =>
    conversationResponseSchema
      .parse(
        (
          await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${id}`, headers: as(ada) })
        ).json(),
      )
      .conversation.filter((i) => i.item_type === 'action')
      .map((i) => ({ type: i.action_type, wake: i.wake_status }));
  const statusIs = (id: string, status: string) =>
    until(`agent ${id} to be ${status}`, async () => ((await row(id)).status === status ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 50,
    });

  it('ends the run while waiting, counts as running, and wakes when the time is up', async () => {
    const id = await create('nap: wait a second');
    await statusIs(id, 'waiting');
    // No slot: the runner has nothing going for it while it waits.
    await (app.runner as AgentRunner).idle(id);
    expect((await row(id)).status).toBe('waiting');
    expect((await row(id)).wakeAt).toBeInstanceOf(Date);
    // The runner wrote the status outside any request: let its change notice reach the poll caches.
    await app.pollCache.settled();
    const counts = statusCountsSchema.parse(
      (await app.server.inject({ url: '/api/agents/status-counts', headers: as(ada) })).json(),
    );
    expect(counts.running_agents.map((a) => a.id)).toContain(id);

    await statusIs(id, 'paused');
    expect(await actions(id)).toEqual(
      expect.arrayContaining([
        { type: 'WaitEvent', wake: undefined },
        { type: 'WakeEvent', wake: 'woke' },
        { type: 'TaskCompleteEvent', wake: undefined },
      ]),
    );
    expect((await row(id)).wakeAt).toBeNull();
  });

  it('wakes early on a new message', async () => {
    const id = await create('long: wait for an hour');
    await statusIs(id, 'waiting');
    await (app.runner as AgentRunner).idle(id);
    const res = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${id}`,
      headers: as(ada),
      payload: { message: 'No need to wait, carry on.' },
    });
    expect(res.statusCode).toBe(200);
    await statusIs(id, 'paused');
    const seen = await actions(id);
    expect(seen.filter((a) => a.type === 'WakeEvent')).toEqual([{ type: 'WakeEvent', wake: 'message' }]);
    expect(seen.at(-1)).toEqual({ type: 'TaskCompleteEvent', wake: undefined });
    expect((await row(id)).wakeAt).toBeNull();
  });

  it('stops a waiting agent for good with Stop', async () => {
    const id = await create('stop: wait for an hour');
    await statusIs(id, 'waiting');
    await (app.runner as AgentRunner).idle(id);
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agent/interrupt',
      headers: as(ada),
      payload: { trajectory_id: id },
    });
    expect(res.statusCode).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'paused', wakeAt: null, interruptRequested: false });
    expect((await actions(id)).at(-1)).toEqual({ type: 'InterruptEvent', wake: undefined });
  });
});
