import type { AgentRunner } from '@tandem/agent';
import { agents } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { ADMIN_TASK_EVENT, conversationResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([
  // One model call slow enough to be stopped, restarted and failed.
  {
    match: 'slow:',
    steps: [{ delay_ms: 60_000, text: 'Thought it over.' }],
  },
]);

/**
 * The task monitor's actions against the real runtime (embedded runner on PGlite, the queue on
 * Postgres): Stop ends the run paused without "Paused by the user"; Restart runs it again; Fail
 * ends it failed and the stopped run leaves it so; a message wakes a failed agent.
 */
describe.each(testDatabaseKinds())('admin task actions on a running agent on %s', (kind) => {
  const testApp = useTestApp(kind, { codeHost: true, agents: { models: { scriptedModelFile: scriptFile } } });
  let app: TestApp;
  let root: TestUser;
  let ada: TestUser;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  beforeAll(async () => {
    app = testApp();
    root = await app.signIn({ username: 'root', admin: true });
    ada = await signInAda(app);
  });

  const row = async (id: string) =>
    (await app.database.db.select().from(agents).where(eq(agents.id, id)))[0]!;
  const statusIs = (id: string, status: string) =>
    until(`agent ${id} to be ${status}`, async () => ((await row(id)).status === status ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 50,
    });
  const actions = async (id: string) =>
    conversationResponseSchema
      .parse(
        (
          await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${id}`, headers: as(ada) })
        ).json(),
      )
      .conversation.filter((i) => i.item_type === 'action')
      .map((i) => (i.action_type === ADMIN_TASK_EVENT ? `admin:${String(i.admin_action)}` : i.action_type));
  const admin = (url: string, payload?: object) =>
    app.server.inject({ method: 'POST', url, headers: as(root), ...(payload ? { payload } : {}) });

  it('stops, restarts and fails a working agent; a message wakes it', { timeout: 90_000 }, async () => {
    const id = await createScriptedAgent(app, ada, 'slow: think it over');
    await statusIs(id, 'open');

    expect((await admin(`/api/admin/tasks/${id}/stop`)).statusCode).toBe(200);
    await statusIs(id, 'paused');
    await (app.runner as AgentRunner).idle(id);
    expect(await actions(id)).toEqual(['admin:stop']);
    expect((await row(id)).interruptRequested).toBe(false);

    expect((await admin('/api/admin/tasks/restart', { task_id: id })).statusCode).toBe(200);
    await statusIs(id, 'open');
    const fail = await admin(`/api/admin/tasks/${id}/fail`);
    expect(fail.statusCode, fail.body).toBe(200);
    await (app.runner as AgentRunner).idle(id);
    // The stopped run ended after the Fail: the agent stays failed.
    expect((await row(id)).status).toBe('failed');
    expect((await row(id)).interruptRequested).toBe(false);
    expect(await actions(id)).toEqual(['admin:stop', 'admin:restart', 'admin:fail']);

    // Failed is not stuck: its owner's message runs it again (the slow call once more: no
    // assistant message was stored), and an admin stops it for the test's end.
    const message = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${id}`,
      headers: as(ada),
      payload: { message: 'Carry on' },
    });
    expect(message.statusCode).toBe(200);
    await statusIs(id, 'open');
    expect((await admin(`/api/admin/tasks/${id}/stop`)).statusCode).toBe(200);
    await statusIs(id, 'paused');
    await (app.runner as AgentRunner).idle(id);
    expect(await actions(id)).toEqual(['admin:stop', 'admin:restart', 'admin:fail', 'admin:stop']);
  });
});
