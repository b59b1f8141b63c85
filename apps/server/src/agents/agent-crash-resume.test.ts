import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { detectSandbox } from '@tandem/agent';
import { conversationResponseSchema, createAgentResponseSchema, type ConversationItem } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADD_SUBTRACT_EDIT,
  freePort,
  killProcessGroup,
  processTmpDir,
  SLOW_ONCE,
  startTandemProcess,
  tempDir,
  until,
  writeScriptFile,
  type TandemProcess,
} from '../testing/agent-harness.js';

/**
 * Kills the whole server process (SIGKILL, no shutdown hooks) while an agent is mid-run, after it
 * has committed and pushed, then starts a new server on the same data directory. The new process
 * must pick the run up from the stored conversation, finish it, and not commit or push twice.
 */
const dataDir = tempDir('tandem-crash-');
// The first process is killed while the slow command sleeps; the resumed run re-executes it quickly.
const scriptFile = writeScriptFile(
  [
    {
      match: 'crash:',
      steps: [
        { tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
        { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
        { tool_calls: [{ name: 'run_command', args: { command: SLOW_ONCE } }] },
        { tool_calls: [{ name: 'task_complete', args: { summary: 'Done after a restart.' } }] },
      ],
    },
  ],
  dataDir,
);

/** The nice values of `pid`'s children running `script` (Linux /proc). */
function childNices(pid: number, script: string): number[] {
  const nices: number[] = [];
  for (const entry of readdirSync('/proc')) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== pid) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(script)) continue;
      nices.push(Number(fields[16]));
    } catch {
      // Gone meanwhile, or not a process.
    }
  }
  return nices;
}

describe('a run killed mid-way', () => {
  let port: number;
  let codeHostPort: number;
  let url: string;
  const started: TandemProcess[] = [];

  const startServer = async (): Promise<TandemProcess> => {
    const server = await startTandemProcess(
      'serve',
      {
        PORT: String(port),
        CODEHOST_PORT: String(codeHostPort),
        STRIPE_LOCAL_PORT: '0',
        HOST: 'localhost',
        TANDEM_DATA_DIR: dataDir,
        TANDEM_SCRIPTED_MODEL_FILE: scriptFile,
        DATABASE_URL: '',
        TANDEM_PROCESS_NICE: '19',
      },
      async () => (await fetch(`${url}/api/health`).catch(() => null))?.ok === true,
    );
    started.push(server);
    return server;
  };

  beforeAll(async () => {
    port = await freePort();
    codeHostPort = await freePort();
    url = `http://localhost:${port}`;
  });

  afterAll(async () => {
    for (const server of started) await killProcessGroup(server.child, 'SIGKILL');
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
    // The server started the agent's processes from its launcher, at the lowest priority there is
    // (TANDEM_PROCESS_NICE), and stayed at its own.
    expect(childNices(first.child.pid!, 'launcher-child')).toEqual([Math.min(19, getPriority() + 19)]);
    expect(getPriority(first.child.pid!)).toBe(getPriority());
    await killProcessGroup(first.child, 'SIGKILL');
    // What the killed process made under its TMPDIR (its isolated agent's network directory) is
    // left there, in the test's own directory, not in the system's /tmp.
    if ((await detectSandbox()).kind === 'bubblewrap') {
      const leftBehind = readdirSync(processTmpDir({ TANDEM_DATA_DIR: dataDir })!);
      expect(leftBehind.some((name) => name.startsWith('tandem-net-'))).toBe(true);
    }

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
