// Escape attempts from inside a REAL bubblewrap sandbox, the way an agent's model or a repository's
// scripts would try them. Each test fails if the escape works. In CI (process.env.CI) a missing
// bubblewrap or slirp4netns is a failure, not a skip: the suite must not pass by not running.
import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentNetwork } from './agent-network.js';
import { detectSandbox } from './detect.js';
import { runCommand } from './exec.js';
import { ShellSession } from './shell-session.js';
import { SANDBOX_LIMITS } from './spawn.js';
import { findSlirp } from './slirp.js';
import { eventually, freePort, tempDir } from './test-support.js';

const support = await detectSandbox();
const unusable =
  support.kind !== 'bubblewrap'
    ? `bubblewrap unusable: ${support.detail}`
    : findSlirp()
      ? null
      : 'slirp4netns not found on PATH (apt-get install slirp4netns)';

describe('sandbox escape prerequisites', () => {
  it.skipIf(!process.env.CI && unusable !== null)(
    `bubblewrap and slirp4netns work here${unusable ? ` (skipped locally: ${unusable})` : ''}`,
    () => {
      expect(unusable).toBeNull();
    },
  );
});

const SECRET_ENV = 'TANDEM_ESCAPE_TEST_SECRET';
const SECRET_VALUE = `server-secret-${Math.random().toString(36).slice(2)}`;

describe.skipIf(unusable !== null)('sandbox escapes (real bubblewrap)', () => {
  let dataDir: string;
  let cleanup: () => Promise<void>;
  let wsA: string;
  let wsB: string;
  let netA: AgentNetwork;
  let netB: AgentNetwork;
  let hostServer: Server;
  let hostPort: number;
  const sessions: ShellSession[] = [];

  const runIn = (workspace: string, network: AgentNetwork | null, command: string) =>
    runCommand({
      command,
      cwd: workspace,
      workspace,
      timeoutMs: 20_000,
      kind: 'bubblewrap',
      agentNetwork: network,
    });
  const runA = (command: string) => runIn(wsA, netA, command);
  /** Connects to host:port from inside and prints what the server sent, or 'unreachable'. */
  const probe = (host: string, port: number) =>
    `{ timeout 5 cat < /dev/tcp/${host}/${port}; } 2>/dev/null || echo unreachable`;
  const serve = (workspace: string, network: AgentNetwork, port: number, reply: string) => {
    const session = ShellSession.start({
      command: `exec node -e "require('net').createServer((s) => s.end('${reply}\\\\n')).listen(${port}, '0.0.0.0')"`,
      cwd: workspace,
      workspace,
      kind: 'bubblewrap',
      agentNetwork: network,
    });
    sessions.push(session);
    return eventually(async () => (await session.listeningPorts()).includes(port), 10_000);
  };

  beforeAll(async () => {
    process.env[SECRET_ENV] = SECRET_VALUE;
    const temp = await tempDir('tandem-escape-');
    dataDir = temp.dir;
    cleanup = temp.cleanup;
    wsA = join(dataDir, 'workspaces', 'agent-a');
    wsB = join(dataDir, 'workspaces', 'agent-b');
    await mkdir(wsA, { recursive: true });
    await mkdir(wsB, { recursive: true });
    await writeFile(join(dataDir, 'secret.key'), 'data-dir-secret');
    await writeFile(join(wsB, 'private.txt'), 'agent b private');
    [netA, netB] = await Promise.all([
      AgentNetwork.create({ internet: true }),
      AgentNetwork.create({ internet: true }),
    ]);
    hostServer = createServer((socket) => socket.end('host-pong\n'));
    await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
    const address = hostServer.address();
    hostPort = typeof address === 'object' && address ? address.port : 0;
  });

  afterAll(async () => {
    delete process.env[SECRET_ENV];
    await Promise.all(sessions.map((session) => session.stop()));
    await Promise.all([netA?.dispose(), netB?.dispose()]);
    await new Promise<void>((resolve) => (hostServer ? hostServer.close(() => resolve()) : resolve()));
    await cleanup?.();
  });

  it('does not run as root or with capabilities', async () => {
    const result = await runA('id -u; id -g; whoami; grep CapEff /proc/self/status');
    expect(result.output).toBe('1000\n1000\nagent\nCapEff:\t0000000000000000\n');
  });

  it('cannot read /etc/shadow, and /etc holds only the allowlisted entries', async () => {
    const result = await runA('cat /etc/shadow 2>&1 || echo no-shadow; ls -A /etc');
    expect(result.output.split('\n')[0]).toMatch(/No such file/);
    const entries = result.output.trim().split('\n').slice(2);
    for (const forbidden of ['shadow', 'gshadow', 'sudoers', 'ssh', 'gitconfig', 'npmrc', 'machine-id']) {
      expect(entries).not.toContain(forbidden);
    }
    // Programs agents need still work with it.
    const tools = await runA(
      'node -e "process.stdout.write(\'node-ok\\\\n\')" && npm -v >/dev/null && echo npm-ok && git --version >/dev/null && echo git-ok && bash -c "echo bash-ok" && curl --version >/dev/null && echo curl-ok && ls / >/dev/null && echo ls-ok && { ! command -v python3 >/dev/null || python3 -c "import ssl; print(\'python-ok\')"; }',
    );
    expect(tools.output).toContain('node-ok\nnpm-ok\ngit-ok\nbash-ok\ncurl-ok\nls-ok\n');
    expect(tools.exitCode).toBe(0);
  });

  it('runs with a process and file-size limit', async () => {
    const result = await runA('ulimit -u; ulimit -f');
    expect(result.output).toBe(`${SANDBOX_LIMITS.processes}\n${SANDBOX_LIMITS.fileBlocks}\n`);
  });

  it("cannot list the host's TLS private keys, while TLS roots are there", async () => {
    expect((await runA('ls -A /etc/ssl')).output.split('\n')).not.toContain('private');
    expect((await runA('ls /etc/ssl/private 2>&1')).output).toMatch(/No such file/);
    expect(Number((await runA('ls /etc/ssl/certs | grep -c pem')).output.trim())).toBeGreaterThan(0);
  });

  it("cannot see the server's environment", async () => {
    const result = await runA(`env; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n'`);
    expect(result.output).not.toContain(SECRET_VALUE);
    expect(result.output).not.toContain(SECRET_ENV);
  });

  it('cannot see host processes or signal the server', async () => {
    const result = await runA(`kill -0 ${process.pid} 2>/dev/null && echo signalled || echo no-signal`);
    expect(result.output).toBe('no-signal\n');
  });

  it('cannot read a host file outside the workspace', async () => {
    const result = await runA(
      `cat ${join(dataDir, 'secret.key')} 2>/dev/null || echo no-secret; cat /proc/1/root${join(dataDir, 'secret.key')} 2>/dev/null || echo no-root`,
    );
    expect(result.output).toBe('no-secret\nno-root\n');
  });

  it('cannot write outside the workspace', async () => {
    const targets = [
      '/usr/escape',
      '/etc/escape',
      join(dataDir, 'escape'),
      join(dataDir, 'workspaces', 'escape'),
    ];
    await runA(targets.map((path) => `echo x > ${path} 2>/dev/null`).join('; '));
    for (const path of targets) expect(existsSync(path)).toBe(false);
  });

  it("cannot see another agent's workspace", async () => {
    const result = await runA(
      `ls ${wsB} 2>/dev/null || echo no-ws; cat ${join(wsB, 'private.txt')} 2>/dev/null || echo no-file`,
    );
    expect(result.output).toBe('no-ws\nno-file\n');
  });

  it('cannot reach a host loopback service, directly or through the slirp gateway', async () => {
    const joined = await runA(`${probe('127.0.0.1', hostPort)}; ${probe('10.0.2.2', hostPort)}`);
    expect(joined.output).toBe('unreachable\nunreachable\n');
    // A one-shot command without the agent's namespace gets a namespace of its own.
    const own = await runIn(wsA, null, `${probe('127.0.0.1', hostPort)}; ${probe('10.0.2.2', hostPort)}`);
    expect(own.output).toBe('unreachable\nunreachable\n');
  });

  it("cannot reach another agent's listening port", async () => {
    const port = await freePort();
    expect(await serve(wsB, netB, port, 'agent-b')).toBe(true);
    const result = await runA(
      `${probe('127.0.0.1', port)}; ${probe('10.0.2.2', port)}; ${probe('10.0.2.100', port)}`,
    );
    expect(result.output).toBe('unreachable\nunreachable\nunreachable\n');
  });

  it('reaches its own background server from another command (same agent, one namespace)', async () => {
    const port = await freePort();
    expect(await serve(wsA, netA, port, 'agent-a')).toBe(true);
    const result = await runA(probe('127.0.0.1', port));
    expect(result.output).toBe('agent-a\n');
  });

  it('leaves files it creates owned by the server, which can delete them', async () => {
    await runA('mkdir -p made/deep && echo x > made/deep/file');
    const stat = statSync(join(wsA, 'made', 'deep', 'file'));
    expect(stat.uid).toBe(process.getuid?.());
    expect(stat.gid).toBe(process.getgid?.());
    await rm(join(wsA, 'made'), { recursive: true, force: true });
    expect(await readdir(wsA)).not.toContain('made');
  });

  it('gets no file descriptors beyond stdio from the server', async () => {
    // ls's own directory handle is 3.
    const result = await runA('ls /proc/self/fd | sort -n | tr "\\n" " "');
    expect(result.output).toBe('0 1 2 3 ');
  });
});
