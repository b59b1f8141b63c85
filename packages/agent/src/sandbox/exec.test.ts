import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand, sandboxEnv } from './exec.js';
import { findSlirp } from './slirp.js';
import { spawnSandboxed } from './spawn.js';
import { processesMatching, sandboxKindCases, tempDir, uniqueSleep } from './test-support.js';

const { cases } = await sandboxKindCases();

let root: string;
let workspace: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir());
  workspace = join(root, 'ws');
  await mkdir(workspace);
});
afterEach(() => cleanup());

describe('sandboxEnv', () => {
  it('is minimal, creates HOME in the workspace and lets extras win', () => {
    const env = sandboxEnv({ FOO: 'bar', LANG: 'en_US.UTF-8', 'BAD=NAME': 'x' }, workspace);
    expect(env).toMatchObject({
      PATH: expect.stringMatching(
        /^\/usr\/local\/sbin:\/usr\/local\/bin:\/usr\/sbin:\/usr\/bin:\/sbin:\/bin/,
      ),
      HOME: join(workspace, '.home'),
      LANG: 'en_US.UTF-8',
      TERM: 'dumb',
      CI: '1',
      npm_config_update_notifier: 'false',
      FOO: 'bar',
    });
    expect(env).not.toHaveProperty('BAD=NAME');
    expect(existsSync(join(workspace, '.home'))).toBe(true);
  });
});

describe.each(cases)('runCommand ($kind)', ({ kind, skip }) => {
  const run = (command: string, extra: Partial<Parameters<typeof runCommand>[0]> = {}) =>
    runCommand({ command, cwd: workspace, workspace, timeoutMs: 4000, kind, ...extra });

  describe.skipIf(skip !== null)(skip ? `skipped: ${skip}` : 'usable', () => {
    it('captures stdout and stderr interleaved, exit code and cwd', async () => {
      const result = await run('echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three; pwd; exit 7');
      expect(result).toMatchObject({ exitCode: 7, signal: null, timedOut: false, aborted: false, kind });
      expect(result.output).toBe(`one\ntwo\nthree\n${workspace}\n`);
    });

    it('runs in a subdirectory and feeds stdin', async () => {
      await mkdir(join(workspace, 'sub'));
      const result = await run('pwd; tr a-z A-Z', { cwd: join(workspace, 'sub'), stdin: 'hello' });
      expect(result.output).toBe(`${join(workspace, 'sub')}\nHELLO`);
      expect(result.exitCode).toBe(0);
    });

    it('gives commands without stdin an immediate EOF', async () => {
      const result = await run('cat; echo done');
      expect(result.output).toBe('done\n');
    });

    it("hides the server's environment and passes the env option", async () => {
      process.env.TANDEM_TEST_SERVER_SECRET = 'server-only-value';
      try {
        const result = await run('env', { env: { REPO_SECRET: 'repo-value' } });
        expect(result.output).not.toContain('TANDEM_TEST_SERVER_SECRET');
        expect(result.output).not.toContain('server-only-value');
        expect(result.output).toContain('REPO_SECRET=repo-value');
        expect(result.output).toContain(`HOME=${join(workspace, '.home')}`);
      } finally {
        delete process.env.TANDEM_TEST_SERVER_SECRET;
      }
    });

    it('kills the whole process tree on timeout', async () => {
      const sleep = uniqueSleep();
      const started = Date.now();
      const result = await run(`sleep ${sleep} & sleep ${sleep}; wait`, { timeoutMs: 300 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode === 0).toBe(false);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await processesMatching(`sleep ${sleep}`)).toEqual([]);
    });

    it('escalates to SIGKILL when SIGTERM is ignored', async () => {
      const sleep = uniqueSleep();
      const result = await run(`trap '' TERM; sleep ${sleep} & wait; sleep ${sleep}`, { timeoutMs: 200 });
      expect(result.timedOut).toBe(true);
      expect(result.durationMs).toBeGreaterThanOrEqual(2000);
      expect(result.durationMs).toBeLessThan(4500);
      expect(await processesMatching(`sleep ${sleep}`)).toEqual([]);
    });

    it('keeps the first maxOutputBytes and flags truncation', async () => {
      const result = await run("head -c 300000 /dev/zero | tr '\\0' a; echo end", { maxOutputBytes: 1000 });
      expect(result.output).toBe('a'.repeat(1000));
      expect(result.truncated).toBe(true);
      expect(result.exitCode).toBe(0);
      expect((await run('echo short')).truncated).toBe(false);
    });

    it('stops on abort, and does not start when already aborted', async () => {
      const sleep = uniqueSleep();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const result = await run(`echo started; sleep ${sleep}`, { signal: controller.signal });
      expect(result).toMatchObject({ aborted: true, timedOut: false, output: 'started\n' });
      expect(await processesMatching(`sleep ${sleep}`)).toEqual([]);

      const marker = join(workspace, 'ran');
      const again = await run(`touch ${marker}`, { signal: controller.signal });
      expect(again.aborted).toBe(true);
      expect(existsSync(marker)).toBe(false);
    });

    it('does not leave background jobs of a finished command running', async () => {
      const sleep = uniqueSleep();
      const started = Date.now();
      const result = await run(`sleep ${sleep} & echo bg`);
      expect(result.output).toBe('bg\n');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(await processesMatching(`sleep ${sleep}`)).toEqual([]);
    });

    it('rejects a cwd outside the workspace', async () => {
      await expect(run('true', { cwd: root })).rejects.toThrow(/outside workspace/);
    });
  });
});

describe.each(cases.filter((c) => c.kind === 'bubblewrap'))('bubblewrap isolation', ({ skip }) => {
  let server: Server;
  let port: number;
  beforeEach(async () => {
    server = createServer((socket) => socket.end('pong\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const run = (command: string, network?: boolean) =>
    runCommand({ command, cwd: workspace, workspace, timeoutMs: 4000, kind: 'bubblewrap', network });

  describe.skipIf(skip !== null)(skip ? `skipped: ${skip}` : 'usable', () => {
    it('only the workspace is writable and sibling directories are invisible', async () => {
      const sibling = join(root, 'other-workspace');
      await mkdir(sibling);
      await writeFile(join(sibling, 'secret.txt'), 'other agent data');
      const result = await run(
        [
          'echo inside > inside.txt',
          'touch /etc/tandem-x 2>/dev/null && echo etc-writable || echo etc-readonly',
          'touch /usr/tandem-x 2>/dev/null && echo usr-writable || echo usr-readonly',
          `cat ${sibling}/secret.txt 2>/dev/null || echo sibling-invisible`,
          `mkdir -p ${sibling} && echo leak > ${sibling}/leak.txt`,
        ].join('; '),
      );
      expect(result.output).toBe('etc-readonly\nusr-readonly\nsibling-invisible\n');
      expect(existsSync(join(workspace, 'inside.txt'))).toBe(true);
      expect(existsSync('/etc/tandem-x')).toBe(false);
      // Written to the sandbox's private tmpfs, not to the host.
      expect(existsSync(join(sibling, 'leak.txt'))).toBe(false);
    });

    it('spawnSandboxed binds readOnlyBinds read-only, fully isolated with network: false', async () => {
      const mirror = join(root, 'mirror');
      await mkdir(mirror);
      await writeFile(join(mirror, 'HEAD'), 'ref: main\n');
      const child = spawnSandboxed({
        command: `cat ${mirror}/HEAD; echo x > ${mirror}/HEAD 2>/dev/null || echo read-only; id -u; grep -c : /proc/net/dev`,
        cwd: workspace,
        workspace,
        kind: 'bubblewrap',
        network: false,
        readOnlyBinds: [mirror],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
      await new Promise((resolve) => child.once('close', resolve));
      expect(output).toBe('ref: main\nread-only\n1000\n1\n');
    });

    it('network: false leaves only loopback; the default never shares the host network', async () => {
      const probe = `{ cat < /dev/tcp/127.0.0.1/${port}; } 2>/dev/null || echo unreachable`;
      const isolated = await run(`grep -c : /proc/net/dev; ${probe}`, false);
      expect(isolated.output).toBe('1\nunreachable\n');
      expect(isolated.networkIsolated).toBe(true);
      // Before, the default was --share-net: the host's loopback server answered 'pong'.
      const own = await run(`grep -c : /proc/net/dev; ${probe}`);
      // lo plus slirp4netns's tap0 where slirp4netns is installed, lo alone otherwise.
      expect(own.output).toBe(`${findSlirp() ? 2 : 1}\nunreachable\n`);
      expect(own.networkIsolated).toBe(false);
    });
  });
});

describe('process mode', () => {
  it('reports that network: false cannot be enforced', async () => {
    const result = await runCommand({
      command: 'true',
      cwd: workspace,
      workspace,
      timeoutMs: 2000,
      kind: 'process',
      network: false,
    });
    expect(result.networkIsolated).toBe(false);
  });
});
