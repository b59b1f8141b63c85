import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conversationResponseSchema, createAgentResponseSchema, type ConversationItem } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Kills the whole server process (SIGKILL, no shutdown hooks) while an agent is mid-run, after it
 * has committed and pushed, then starts a new server on the same data directory. The new process
 * must pick the run up from the stored conversation, finish it, and not commit or push twice.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const serverMain = join(root, 'apps/server/dist/main.js');

const dataDir = mkdtempSync(join(tmpdir(), 'tandem-crash-'));
const scriptFile = join(dataDir, 'script.json');
// The command is slow only the first time (its marker lives in .git, so it is never committed):
// the first process is killed while it sleeps, the resumed run re-executes it quickly.
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
                args: {
                  path: 'src/math.js',
                  old_string: 'export function multiply(a, b) {',
                  new_string:
                    'export function subtract(a, b) {\n  return a - b;\n}\n\nexport function multiply(a, b) {',
                },
              },
            ],
          },
          { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
          { tool_calls: [{ name: 'run_command', args: { command: SLOW_ONCE } }] },
          { tool_calls: [{ name: 'task_complete', args: { summary: 'Done after a restart.' } }] },
        ],
      },
    ],
  }),
);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Server {
  child: ChildProcess;
  output: () => string;
}

describe('a run killed mid-way', () => {
  let port: number;
  let codeHostPort: number;
  let url: string;
  const started: Server[] = [];

  const startServer = async (): Promise<Server> => {
    let output = '';
    // Its own process group, so the SIGKILL also takes the sandbox's commands with it.
    const child = spawn(process.execPath, [serverMain, 'serve'], {
      cwd: root,
      detached: true,
      env: {
        ...process.env,
        PORT: String(port),
        CODEHOST_PORT: String(codeHostPort),
        HOST: 'localhost',
        TANDEM_DATA_DIR: dataDir,
        TANDEM_SCRIPTED_MODEL_FILE: scriptFile,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const server = { child, output: () => output };
    started.push(server);
    await until('the server to be healthy', async () => {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
      return (await fetch(`${url}/api/health`)).ok ? true : undefined;
    }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
    return server;
  };

  const kill = async (server: Server, signal: NodeJS.Signals) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return;
    const exited = new Promise((r) => server.child.once('exit', r));
    try {
      process.kill(-server.child.pid!, signal);
    } catch {
      server.child.kill(signal);
    }
    await exited;
  };

  beforeAll(async () => {
    if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first (npx tsc -b)`);
    port = await freePort();
    codeHostPort = await freePort();
    url = `http://localhost:${port}`;
  });

  afterAll(async () => {
    for (const server of started) await kill(server, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The browser's sign-in round trip through the code host's "Sign in as" page. */
  const signIn = async (login: string): Promise<string> => {
    const start = await fetch(`${url}/auth/github?return_uri=/agents`, { redirect: 'manual' });
    const authorize = new URL(start.headers.get('location')!);
    const oauthCookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith('tandem_oauth='))!
      .split(';')[0]!;
    const chosen = await fetch(`${authorize.origin}/login/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: authorize.searchParams.get('client_id')!,
        redirect_uri: authorize.searchParams.get('redirect_uri')!,
        state: authorize.searchParams.get('state')!,
        login,
      }),
    });
    const callback = new URL(chosen.headers.get('location')!);
    const done = await fetch(`${url}${callback.pathname}${callback.search}`, {
      redirect: 'manual',
      headers: { cookie: oauthCookie },
    });
    const session = done.headers.getSetCookie().find((c) => c.startsWith('access_token='));
    if (!session) throw new Error(`sign-in failed: ${done.status} ${await done.text()}`);
    return session.split(';')[0]!.slice('access_token='.length);
  };

  it('continues from the stored conversation without a second commit', async () => {
    const first = await startServer();
    const token = await signIn('ada');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/agents/create-agent/acme/webapp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ body: 'crash: add subtract', model: 'scripted' }),
    });
    expect(created.status).toBe(200);
    const { agent_id } = createAgentResponseSchema.parse(await created.json());

    const feed = async (): Promise<ConversationItem[]> => {
      const res = await fetch(`${url}/api/agent/conversation?trajectory_id=${agent_id}`, { headers });
      return conversationResponseSchema.parse(await res.json()).conversation;
    };
    // Killed while the command sleeps: the commit is pushed, the command's result is not stored.
    await until('the slow command to start', async () => {
      const items = await feed();
      const started = items.some(
        (i) => i.item_type === 'shell_message' && String(i.message).includes('first'),
      );
      return started && items.some((i) => i.item_type === 'commit') ? true : undefined;
    });
    await kill(first, 'SIGKILL');

    await startServer();
    const items = await until('the resumed run to finish', async () => {
      const all = await feed();
      return all.some((i) => i.action_type === 'TaskCompleteEvent') ? all : undefined;
    });
    expect(items.filter((i) => i.action_type === 'ErrorEvent')).toEqual([]);
    expect(items.filter((i) => i.item_type === 'commit')).toHaveLength(1);
    expect(items.filter((i) => i.item_type === 'edit')).toHaveLength(1);
    const output = items
      .filter((i) => i.item_type === 'shell_message')
      .map((i) => String(i.message))
      .join('');
    expect(output).toContain('resumed');

    // The code host's own bare repository: the branch carries exactly one commit on top of main.
    const bare = join(dataDir, 'codehost', 'repos', 'acme', 'webapp.git');
    const log = spawnSync('git', ['--git-dir', bare, 'log', '--format=%s', 'main..tandem-1'], {
      encoding: 'utf8',
    });
    expect(log.stdout.trim().split('\n')).toEqual(['Add subtract']);
  }, 120_000);
});
