import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conversationResponseSchema, createAgentResponseSchema, type ConversationItem } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

/**
 * Postgres only (graphile-worker): the server only queues runs, separate `worker` processes run
 * them. A worker SIGKILLed mid-run leaves its job locked; the next worker to start hands it back
 * to the queue and the run continues without a second commit. Interrupts reach the worker that
 * runs the agent.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const serverMain = join(root, 'apps/server/dist/main.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-queue-'));
const scriptFile = join(dir, 'script.json');
const SLOW_ONCE =
  'if [ -f .git/crash-marker ]; then echo resumed; else touch .git/crash-marker; echo first; sleep 20; fi';
writeFileSync(
  scriptFile,
  JSON.stringify({
    scripts: [
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
        match: 'long:',
        steps: [
          { tool_calls: [{ name: 'run_command', args: { command: 'echo started; sleep 30' } }] },
          { tool_calls: [{ name: 'task_complete', args: { summary: 'should not get here' } }] },
        ],
      },
    ],
  }),
);

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)('agents on the Postgres queue with worker processes', () => {
  let app: TestApp;
  let ada: TestUser;
  const workers: { child: ChildProcess; output: () => string }[] = [];

  const startWorker = async () => {
    let output = '';
    const codeHost = app.codeHost!;
    const child = spawn(process.execPath, [serverMain, 'worker'], {
      cwd: root,
      detached: true, // its own process group: the SIGKILL takes the sandbox's commands too
      env: {
        ...process.env,
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
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const worker = { child, output: () => output };
    workers.push(worker);
    await until('the worker to start', async () => {
      if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}):\n${output}`);
      return output.includes('worker is running') ? true : undefined;
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
    return worker;
  };

  const kill = async (worker: { child: ChildProcess }, signal: NodeJS.Signals) => {
    const { child } = worker;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
    await exited;
  };

  beforeAll(async () => {
    if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first (npx tsc -b)`);
    app = await createTestApp('postgres', {
      codeHost: true,
      agents: { models: { scriptedModelFile: scriptFile }, work: false },
    });
    await app.server.ready();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
  });

  afterAll(async () => {
    for (const worker of workers) await kill(worker, 'SIGKILL');
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = () => ({ authorization: `Bearer ${ada.token}` });
  const create = async (body: string) => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: headers(),
      payload: { body, model: 'scripted' },
    });
    expect(res.statusCode).toBe(200);
    return createAgentResponseSchema.parse(res.json()).agent_id;
  };
  const feed = async (agentId: string): Promise<ConversationItem[]> =>
    conversationResponseSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/conversation?trajectory_id=${agentId}`,
          headers: headers(),
        })
      ).json(),
    ).conversation;

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
    await kill(first, 'SIGKILL');

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
    await kill(second, 'SIGTERM');
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
      20_000,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(items.some((i) => i.action_type === 'TaskCompleteEvent')).toBe(false);
  }, 90_000);
});
