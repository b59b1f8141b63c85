import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentNetwork } from './agent-network.js';
import { detectSandbox } from './detect.js';
import { runCommand } from './exec.js';
import { ShellSession } from './shell-session.js';
import { findSlirp } from './slirp.js';
import { eventually, freePort, processesMatching, tempDir } from './test-support.js';

const support = await detectSandbox();
const skip = support.kind !== 'bubblewrap' ? support.detail : findSlirp() ? null : 'slirp4netns not found';

/** Running, not a zombie waiting for init to reap it. */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/hello', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve(`${res.statusCode} ${body}`));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(skip !== null)(`AgentNetwork${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let workspace: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const temp = await tempDir('tandem-net-test-');
    workspace = join(temp.dir, 'ws');
    await mkdir(workspace);
    cleanup = temp.cleanup;
  });
  afterAll(() => cleanup());

  /** Runs `command` in the workspace's sandbox, inside `network`. */
  const runInside = (network: AgentNetwork, command: string) =>
    runCommand({
      command,
      cwd: workspace,
      workspace,
      timeoutMs: 10_000,
      kind: 'bubblewrap',
      agentNetwork: network,
    });

  it('gives commands tap0 and slirp DNS; forwards a loopback-only server to a host port', async () => {
    const network = await AgentNetwork.create({ internet: true });
    try {
      expect(network.internet).toBe(true);
      const shape = await runInside(
        network,
        'ip -o -4 addr show tap0 | grep -o "10.0.2.100/24"; ip route | grep default; cat /etc/resolv.conf',
      );
      expect(shape.output).toBe('10.0.2.100/24\ndefault via 10.0.2.2 dev tap0 \nnameserver 10.0.2.3\n');

      const port = await freePort();
      // Bound to 127.0.0.1 inside the namespace, as dev servers usually are.
      const session = ShellSession.start({
        command: `exec node -e "require('http').createServer((q, s) => s.end('served ' + q.headers.host + q.url)).listen(${port}, '127.0.0.1')"`,
        cwd: workspace,
        workspace,
        kind: 'bubblewrap',
        agentNetwork: network,
      });
      try {
        expect(await eventually(async () => (await session.listeningPorts()).includes(port), 10_000)).toBe(
          true,
        );
        const hostPort = await network.forward(port, '127.0.0.1');
        expect(hostPort).not.toBe(port);
        expect(await get(hostPort)).toBe(`200 served 127.0.0.1:${hostPort}/hello`);
        expect(await network.forward(port, '127.0.0.1')).toBe(hostPort);
        await network.unforward(port);
        await expect(get(hostPort)).rejects.toThrow(/ECONNREFUSED/);
      } finally {
        await session.stop();
      }
    } finally {
      await network.dispose();
    }
  });

  it('without internet: loopback only, no resolv.conf', async () => {
    const network = await AgentNetwork.create({ internet: false });
    try {
      const result = await runInside(
        network,
        'grep -c : /proc/net/dev; ls /etc/resolv.conf 2>/dev/null || echo no-resolv',
      );
      expect(result.output).toBe('1\nno-resolv\n');
    } finally {
      await network.dispose();
    }
  });

  it('starts the holder again when its sandbox setup fails after bwrap reported its pid', async () => {
    // bubblewrap 0.8 at times fails to set up a new namespace's loopback after it has reported the
    // sandbox's pid: the holder then exits at once, and without a retry every command failed.
    const attempts: number[] = [];
    const network = await AgentNetwork.create({
      internet: false,
      holderCommand: (attempt) => {
        attempts.push(attempt);
        return attempt === 1
          ? ['/bin/sh', '-c', 'echo "loopback: Failed RTM_NEWADDR" >&2; exit 1']
          : ['/bin/sh', '-c', 'echo ready && exec /bin/sleep infinity'];
      },
    });
    try {
      expect(attempts).toEqual([1, 2]);
      expect(alive(network.pid)).toBe(true);
      const result = await runInside(network, 'echo inside');
      expect(result.output).toBe('inside\n');
    } finally {
      await network.dispose();
    }
  });

  it('gives up after three failed holders, with what bwrap said, leaving none behind', async () => {
    const marker = `tandem-holder-test-${process.pid}`;
    const attempts: number[] = [];
    await expect(
      AgentNetwork.create({
        internet: false,
        holderCommand: (attempt) => {
          attempts.push(attempt);
          return ['/bin/sh', '-c', `echo "setup failed" >&2; exit 1; ${marker}`];
        },
      }),
    ).rejects.toThrow(/bwrap exited: setup failed/);
    expect(attempts).toEqual([1, 2, 3]);
    expect(await processesMatching(marker)).toEqual([]);
  });

  it('dispose() leaves no process behind', async () => {
    const network = await AgentNetwork.create({ internet: true });
    const port = await freePort();
    const session = ShellSession.start({
      command: `exec node -e "require('net').createServer().listen(${port})"`,
      cwd: workspace,
      workspace,
      kind: 'bubblewrap',
      agentNetwork: network,
    });
    expect(await eventually(async () => (await session.listeningPorts()).includes(port), 10_000)).toBe(true);
    await network.forward(port, '127.0.0.1');
    await session.stop();
    const holder = network.pid;
    await network.dispose();
    expect(alive(holder)).toBe(false);
    expect(await processesMatching(`--target=${holder}`)).toEqual([]);
    expect(await processesMatching(`${holder} tap0`)).toEqual([]);
    expect(await processesMatching(network.runtimeDir)).toEqual([]);
    // Its directory (the bridge's socket) is gone once dispose() resolves.
    expect(existsSync(network.runtimeDir)).toBe(false);
    await expect(network.forward(port, '127.0.0.1')).rejects.toThrow(/disposed/);
  });

  it('dies with the server: a killed parent leaves no holder, slirp4netns or bridge', async () => {
    const script = join(workspace, 'server.mts');
    const module = fileURLToPath(new URL('./agent-network.ts', import.meta.url));
    await writeFile(
      script,
      [
        `import { AgentNetwork } from ${JSON.stringify(module)};`,
        `const network = await AgentNetwork.create({ internet: true });`,
        `await network.forward(1234, '127.0.0.1');`,
        `console.log(network.pid + ' ' + network.runtimeDir);`,
        `setInterval(() => undefined, 1000);`,
      ].join('\n'),
    );
    // One process (tsx's loader, not its CLI, which would run the script in a child of its own).
    const loader = new URL('../../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
    const server = spawn(process.execPath, ['--import', loader, script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [holder, runtimeDir] = await new Promise<[number, string]>((resolve, reject) => {
      server.stdout.setEncoding('utf8').once('data', (line: string) => {
        const [pid, dir] = line.trim().split(' ');
        resolve([Number(pid), dir as string]);
      });
      server.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
    });
    const gone = async (needle: string) => (await processesMatching(needle)).length === 0;
    expect(alive(holder)).toBe(true);
    expect(await gone(`${holder} tap0`)).toBe(false); // slirp4netns
    expect(await gone(runtimeDir)).toBe(false); // the port bridge
    server.kill('SIGKILL');
    expect(await eventually(() => !alive(holder), 5000)).toBe(true);
    expect(await eventually(() => gone(`${holder} tap0`), 5000)).toBe(true);
    expect(await eventually(() => gone(runtimeDir), 5000)).toBe(true);
    // Only the bridge's socket directory stays behind a killed server.
    await rm(runtimeDir, { recursive: true, force: true });
  });
});
