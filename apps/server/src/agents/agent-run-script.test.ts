import { feedOf } from '../testing/feed.js';
import type { AgentRunner } from '@tandem/agent';
import { SCRIPT_PATH_MESSAGE, createAgentResponseSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { agents, scriptLogs } from '@tandem/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/** The Run Scripts menu: the user starts one of the repository's scripts in the agent's sandbox. */
const scriptFile = writeScriptFile([
  {
    match: 'make a script',
    steps: [
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: {
              path: '.tandem/run/hello.sh',
              old_string: '',
              new_string: 'echo "hello from the script"\nsleep 1\necho "script done"\n',
            },
          },
        ],
      },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Wrote the script.' } }] },
    ],
  },
  {
    match: 'work slowly',
    steps: [
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: { path: '.tandem/run/quick.sh', old_string: '', new_string: 'echo "quick script ran"\n' },
          },
        ],
      },
      { tool_calls: [{ name: 'run_command', args: { command: 'sleep 30', timeout_seconds: 60 } }] },
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: { path: 'after-pause.txt', old_string: '', new_string: 'kept going\n' },
          },
        ],
      },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Done.' } }] },
    ],
  },
  {
    match: 'add an auto script',
    steps: [
      {
        tool_calls: [
          {
            name: 'edit_file',
            args: {
              path: '.tandem/run/auto/0-watch.sh',
              old_string: '',
              new_string: 'echo "auto script ran"\n',
            },
          },
        ],
      },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add an auto script' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Added it.' } }] },
    ],
  },
]);

describe('running a repository script for the user', () => {
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  let app: TestApp;
  let ada: TestUser;
  const headers = () => ({ authorization: `Bearer ${ada.token}` });
  const adaFeed = (agentId: string) => feedOf(app, ada.token, agentId);

  beforeAll(async () => {
    app = testApp();
    ada = await signInAda(app);
  });

  it('starts the script in the background and streams its output into the feed', async () => {
    const agent_id = await createScriptedAgent(app, ada, 'make a script');
    const runner = app.runner as AgentRunner;
    await runner.idle(agent_id);
    const run = (script_path: string) =>
      app.server.inject({
        method: 'POST',
        url: '/api/agent/run-script',
        headers: headers(),
        payload: { trajectory_id: agent_id, script_path },
      });
    const feed = () => adaFeed(agent_id);

    const bad = await run('../../etc/passwd.sh');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].msg).toBe(SCRIPT_PATH_MESSAGE);

    expect((await run('.tandem/run/hello.sh')).json()).toEqual({ success: true });
    await runner.idle(agent_id);
    const items = await until(
      'the script to finish',
      async () => {
        const all = await feed();
        return all.some((i) => i.item_type === 'shell_message' && i.message_type === 'shutdown')
          ? all
          : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    const shell = items.find((i) => i.item_type === 'shell')!;
    expect(shell).toMatchObject({
      script_path: '.tandem/run/hello.sh',
      command: 'bash .tandem/run/hello.sh',
    });
    const output = items
      .filter((i) => i.item_type === 'shell_message' && i.pid === shell.pid)
      .map((i) => String(i.message))
      .join('');
    expect(output).toContain('hello from the script');
    expect(output).toContain('script done');
    expect(output).toContain('exited with code 0');
    // The run is also a script log of the repository (its Logs tab).
    const [log] = await until(
      'the script log',
      async () => {
        const rows = await app.database.db.select().from(scriptLogs).where(eq(scriptLogs.agentId, agent_id));
        return rows.length ? rows : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(log).toMatchObject({ path: '.tandem/run/hello.sh', statusCode: 0 });
    expect(log!.output).toContain('hello from the script');
    expect(log!.output).toContain('script done');
    expect(log!.scriptContents).toContain('echo "hello from the script"');

    expect((await run('.tandem/preview/missing.sh')).statusCode).toBe(200);
    await runner.idle(agent_id);
    const errors = (await feed()).filter((i) => i.action_type === 'ErrorEvent');
    expect(errors.map((e) => e.exception)).toEqual(['Script not found: .tandem/preview/missing.sh']);
  });

  it('runs a script on a paused agent without waking the model', async () => {
    const agent_id = await createScriptedAgent(app, ada, 'work slowly');
    const runner = app.runner as AgentRunner;
    const feed = () => adaFeed(agent_id);
    // Paused in the middle of its task: the model still has steps it would take.
    await until(
      'the long command to start',
      async () =>
        (await feed()).some((i) => i.item_type === 'shell' && i.command === 'sleep 30') ? true : undefined,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    await app.server.inject({
      method: 'POST',
      url: '/api/agent/interrupt',
      headers: headers(),
      payload: { trajectory_id: agent_id },
    });
    await runner.idle(agent_id);
    const before = (await feed()).length;

    const run = await app.server.inject({
      method: 'POST',
      url: '/api/agent/run-script',
      headers: headers(),
      payload: { trajectory_id: agent_id, script_path: '.tandem/run/quick.sh' },
    });
    expect(run.json()).toEqual({ success: true });
    await runner.idle(agent_id);
    const items = await until(
      'the script to finish',
      async () => {
        const all = await feed();
        const ran = all.some(
          (i) => i.item_type === 'shell_message' && String(i.message).includes('quick script ran'),
        );
        return ran ? all : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    await runner.idle(agent_id);
    const after = await feed();
    // Only the script's own shell items are new: no edit, no model message, no further step.
    expect(after.slice(before).every((i) => i.item_type === 'shell' || i.item_type === 'shell_message')).toBe(
      true,
    );
    expect(after.some((i) => i.item_type === 'edit' && JSON.stringify(i).includes('after-pause.txt'))).toBe(
      false,
    );
    expect(items.length).toBeGreaterThan(before);
  });
  it('starts .tandem/run/auto scripts when a sandbox is set up, with their logs', async () => {
    const create = async (body: string, base_branch?: string) =>
      createAgentResponseSchema.parse(
        (
          await app.server.inject({
            method: 'POST',
            url: '/api/agents/create-agent/acme/webapp',
            headers: headers(),
            payload: { body, model: 'scripted', ...(base_branch ? { base_branch } : {}) },
          })
        ).json(),
      ).agent_id;
    const runner = app.runner as AgentRunner;
    const writer = await create('add an auto script');
    await runner.idle(writer);
    const [row] = await app.database.db.select().from(agents).where(eq(agents.id, writer));
    // A new agent from that branch gets a fresh sandbox, which starts the script by itself.
    const reader = await create('just have a look', row!.branch!);
    const items = await until(
      'the auto script to finish',
      async () => {
        const all = await adaFeed(reader);
        return all.some((i) => i.item_type === 'shell_message' && i.message_type === 'shutdown')
          ? all
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const shell = items.find((i) => i.item_type === 'shell')!;
    expect(shell).toMatchObject({
      script_path: '.tandem/run/auto/0-watch.sh',
      command: 'bash .tandem/run/auto/0-watch.sh',
    });
    const [log] = await until(
      'the auto script log',
      async () => {
        const rows = await app.database.db.select().from(scriptLogs).where(eq(scriptLogs.agentId, reader));
        return rows.length ? rows : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(log).toMatchObject({ path: '.tandem/run/auto/0-watch.sh', statusCode: 0 });
    expect(log!.output).toContain('auto script ran');
  });
});
