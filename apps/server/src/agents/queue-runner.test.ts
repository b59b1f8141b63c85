import { feedOf } from '../testing/feed.js';
import { join } from 'node:path';
import { prefetchStats } from '@tandem/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  killProcessGroup,
  SLOW_ONCE,
  startTandemProcess,
  tempDir,
  until,
  writeScriptFile,
  type TandemProcess,
} from '../testing/agent-harness.js';
import { createScriptedAgent, signInAda } from '../testing/scripted-agents.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * Postgres only (graphile-worker): the server only queues runs, separate `worker` processes run
 * them. A worker SIGKILLed mid-run leaves its job locked; the next worker to start hands it back
 * to the queue and the run continues without a second commit. Interrupts reach the worker that
 * runs the agent.
 */
const dir = tempDir('tandem-queue-');
const scriptFile = writeScriptFile(
  [
    {
      match: 'crash:',
      steps: [
        {
          tool_calls: [
            {
              name: 'edit_file',
              args: { path: 'README.md', old_string: '# webapp', new_string: '# webapp (queued)' },
            },
          ],
        },
        { tool_calls: [{ name: 'commit_and_push', args: { message: 'Queue edit' } }] },
        { tool_calls: [{ name: 'run_command', args: { command: SLOW_ONCE } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Done on another worker.' } }] },
      ],
    },
    {
      match: 'quick:',
      steps: [{ tool_calls: [{ name: 'task_complete', args: { summary: 'Nothing to do.' } }] }],
    },
    {
      match: 'long:',
      steps: [
        { tool_calls: [{ name: 'run_command', args: { command: 'echo started; sleep 30' } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'should not get here' } }] },
      ],
    },
  ],
  dir,
);

/** A server on Postgres with the scripted model and ada signed in; `work`: it runs agents itself. */
async function openApp(work: boolean): Promise<{ app: TestApp; ada: TestUser }> {
  const app = await createTestApp('postgres', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile }, work },
  });
  await app.server.ready();
  return { app, ada: await signInAda(app) };
}

describe.runIf(process.env.TEST_DATABASE_URL)('agents on the Postgres queue with worker processes', () => {
  let app: TestApp;
  let ada: TestUser;
  const workers: TandemProcess[] = [];

  const startWorker = async () => {
    const codeHost = app.codeHost!;
    const worker = await startTandemProcess(
      'worker',
      {
        DATABASE_URL: app.database.url!,
        TANDEM_DATA_DIR: join(dir, 'worker-data'),
        TANDEM_SECRET_KEY: 'test-secret-key-test-secret-key-test',
        TANDEM_SCRIPTED_MODEL_FILE: scriptFile,
        GITHUB_API_URL: codeHost.apiUrl,
        GITHUB_WEB_URL: codeHost.url,
        GITHUB_APP_ID: String(codeHost.credentials.appId),
        GITHUB_APP_SLUG: codeHost.credentials.slug,
        GITHUB_PRIVATE_KEY: codeHost.credentials.privateKey,
        GITHUB_CLIENT_ID: codeHost.credentials.clientId,
        GITHUB_CLIENT_SECRET: codeHost.credentials.clientSecret,
        GITHUB_WEBHOOK_SECRET: codeHost.credentials.webhookSecret,
      },
      async (proc) => proc.output().includes('worker is running'),
    );
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    ({ app, ada } = await openApp(false));
  });

  afterAll(async () => {
    for (const worker of workers) await killProcessGroup(worker.child, 'SIGKILL');
    await app?.close();
  });

  const headers = () => ({ authorization: `Bearer ${ada.token}` });
  const create = (body: string) => createScriptedAgent(app, ada, body);
  const feed = (agentId: string) => feedOf(app, ada.token, agentId);

  it('a killed worker’s run is taken over by the next worker without a second commit', async () => {
    const first = await startWorker();
    const agentId = await create('crash: edit the readme');
    await until('the slow command to start after the commit', async () => {
      const items = await feed(agentId);
      const sleeping = items.some(
        (i) => i.item_type === 'shell_message' && String(i.message).includes('first'),
      );
      return sleeping && items.some((i) => i.item_type === 'commit') ? true : undefined;
    });
    await killProcessGroup(first.child, 'SIGKILL');

    const second = await startWorker();
    const items = await until('the run to finish on the second worker', async () => {
      const all = await feed(agentId);
      return all.some((i) => i.action_type === 'TaskCompleteEvent') ? all : undefined;
    });
    expect(items.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    expect(items.filter((i) => i.item_type === 'commit')).toHaveLength(1);
    const output = items
      .filter((i) => i.item_type === 'shell_message')
      .map((i) => String(i.message))
      .join('');
    expect(output).toContain('resumed');

    const token = await app.codeHost!.issueInstallationToken(1000);
    const compare = (await fetch(`${app.codeHost!.apiUrl}/repos/acme/webapp/compare/main...tandem-1`, {
      headers: { authorization: `token ${token}` },
    }).then((r) => r.json())) as { commits: { commit: { message: string } }[] };
    expect(compare.commits.map((c) => c.commit.message.split('\n')[0])).toEqual(['Queue edit']);
    await killProcessGroup(second.child, 'SIGTERM');
  }, 120_000);

  it('interrupts a run going on a worker process', async () => {
    await startWorker();
    const agentId = await create('long: sleep');
    await until('the command to start', async () => {
      const items = await feed(agentId);
      return items.some((i) => i.item_type === 'shell_message' && String(i.message).includes('started'))
        ? true
        : undefined;
    });
    const started = Date.now();
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agent/interrupt',
      headers: headers(),
      payload: { trajectory_id: agentId },
    });
    expect(res.statusCode).toBe(200);
    const items = await until(
      'the InterruptEvent',
      async () => {
        const all = await feed(agentId);
        return all.some((i) => i.action_type === 'InterruptEvent') ? all : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(items.some((i) => i.action_type === 'TaskCompleteEvent')).toBe(false);
  }, 90_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)("a new agent run by the server's own queue worker", () => {
  let app: TestApp;
  let ada: TestUser;

  beforeAll(async () => {
    ({ app, ada } = await openApp(true));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('starts its first prompt from the instructions read its creation began', async () => {
    const { taken } = prefetchStats();
    const agentId = await createScriptedAgent(app, ada, 'quick: nothing');
    await until('the run to finish', async () => {
      const items = await feedOf(app, ada.token, agentId);
      return items.some((i) => i.action_type === 'TaskCompleteEvent') ? true : undefined;
    });
    expect(prefetchStats().taken).toBe(taken + 1);
  }, 90_000);
});
