import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { launch, type PipedProcess, type StdioKind } from '@tandem/process';
import { readChildPid, type AgentNetwork } from './agent-network.js';
import { bwrapArgs, findBwrap, findProgram, nodePrefix } from './bwrap.js';
import type { SandboxKind } from './detect.js';
import { attachSlirp, findSlirp, type Slirp } from './slirp.js';

const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The complete environment of a sandboxed command. Built from scratch so nothing of the server's own
 * process.env (database URL, API keys) reaches repository code; `extra` (the repository's secrets)
 * wins over the defaults.
 */
export function sandboxEnv(extra: Record<string, string> = {}, workspace?: string): Record<string, string> {
  let home = tmpdir();
  if (workspace) {
    home = join(workspace, '.home');
    mkdirSync(home, { recursive: true });
  }
  const prefix = nodePrefix();
  const env: Record<string, string> = {
    PATH: prefix ? `${BASE_PATH}:${join(prefix, 'bin')}` : BASE_PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    CI: '1',
    npm_config_update_notifier: 'false',
  };
  for (const [key, value] of Object.entries(extra)) {
    // Names with '=' or NULs cannot be represented in an environment block; spawn would throw.
    if (!key || key.includes('=') || key.includes('\0') || value.includes('\0')) continue;
    env[key] = value;
  }
  return env;
}

export interface SpawnSpec {
  command: string;
  cwd: string;
  workspace: string;
  env?: Record<string, string>;
  /**
   * Without `agentNetwork` (default true): under bubblewrap, true means a namespace of the command's
   * own with slirp4netns, false loopback only. Never the host's network.
   */
  network?: boolean;
  /**
   * The agent's shared network namespace (bubblewrap only). When given, the command always joins
   * it, and the namespace alone decides about outside access (AgentNetwork's `internet`).
   */
  agentNetwork?: AgentNetwork | null;
  kind: SandboxKind;
  /** Host paths bound read-only at the same path (bubblewrap only). */
  readOnlyBinds?: readonly string[];
  /**
   * Start it from this process (Node's spawn) rather than through the launcher (@tandem/process),
   * for a caller that needs the pid at once. A start from here blocks the event loop for a fork of
   * the whole server, so only interactive shells do.
   */
  direct?: boolean;
}

interface StartOptions {
  cwd?: string;
  env: Record<string, string>;
  detached: boolean;
  stdio: StdioKind[];
}

/** Every start here asks for pipes on 0-2, so the three standard streams are there. */
function start(
  direct: boolean | undefined,
  file: string,
  args: string[],
  options: StartOptions,
): PipedProcess {
  return launch(file, args, { ...options, direct }) as PipedProcess;
}

function assertInsideWorkspace(cwd: string, workspace: string): void {
  if (!isAbsolute(cwd) || !isAbsolute(workspace)) {
    throw new Error(`cwd and workspace must be absolute paths (got ${cwd}, ${workspace})`);
  }
  const rel = relative(workspace, cwd);
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new Error(`cwd ${cwd} is outside workspace ${workspace}`);
  // Checked here because spawn reports a missing cwd as a confusing "spawn bash ENOENT".
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`cwd ${cwd} is not a directory`);
}

/**
 * Per-command resource limits (no cgroups needed): a fork bomb stops at `processes` (RLIMIT_NPROC,
 * which the kernel does not enforce for a server running as root: run workers as an ordinary user),
 * and no single file grows past 8 GiB (RLIMIT_FSIZE, in 1 KiB blocks) to fill the worker's disk.
 */
export const SANDBOX_LIMITS = { processes: 4096, fileBlocks: 8 * 1024 * 1024 } as const;

/**
 * Descriptors the server inherited without close-on-exec (from whatever started it) would pass
 * through bwrap into the sandbox, and one open on a host directory is a way out. The sandbox's
 * first shell closes everything above stderr (no redirection around the loop: bash would park the
 * real stderr on a high descriptor the loop then closes), then becomes `bash -c command`.
 */
const CLOSE_INHERITED_FDS =
  'for fd in /proc/self/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && [ -e "/proc/self/fd/$fd" ] && eval "exec $fd>&-"; done; ' +
  `ulimit -u ${SANDBOX_LIMITS.processes} -f ${SANDBOX_LIMITS.fileBlocks} 2>/dev/null; exec bash -c "$1"`;

/**
 * Starts `bash -c command` in its own process group (detached) so the whole tree can be signalled.
 * stdin stays a pipe; stdout and stderr are separate pipes the caller interleaves.
 */
export function spawnSandboxed(spec: SpawnSpec): PipedProcess {
  assertInsideWorkspace(spec.cwd, spec.workspace);
  const env = sandboxEnv(spec.env, spec.workspace);
  const options: StartOptions = { cwd: spec.cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] };
  if (spec.kind === 'process') return start(spec.direct, 'bash', ['-c', spec.command], options);
  const bwrap = findBwrap();
  if (!bwrap) throw new Error('bubblewrap sandbox requested but bwrap is not on PATH');
  const joined = spec.agentNetwork ?? null;
  const slirp = (spec.network ?? true) && !joined ? findSlirp() : null;
  const unshare = slirp ? findProgram('unshare') : null;
  const own = slirp !== null && unshare !== null;
  const args = bwrapArgs({
    workspace: spec.workspace,
    cwd: spec.cwd,
    net: joined || own ? 'joined' : 'isolated',
    dns: joined ? joined.internet : own,
    env,
    ...(spec.readOnlyBinds ? { readOnlyBinds: spec.readOnlyBinds } : {}),
  });
  const program = ['bash', '-c', CLOSE_INHERITED_FDS, 'bash', spec.command];
  if (joined) {
    const [nsenter, ...enter] = joined.enterArgs();
    return start(spec.direct, nsenter as string, [...enter, bwrap, ...args, ...program], options);
  }
  if (!own) return start(spec.direct, bwrap, [...args, ...program], options);
  // A network namespace of the command's own (in a user namespace, so no root is needed), which
  // slirp4netns joins once bwrap reports the sandbox started (--info-fd): by then unshare has
  // created it. The command itself waits (--block-fd) until the network is up.
  const child = start(
    spec.direct,
    unshare as string,
    [
      '--user',
      '--map-root-user',
      '--net',
      '--',
      bwrap,
      ...args,
      '--info-fd',
      '3',
      '--block-fd',
      '4',
      ...program,
    ],
    { ...options, stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] },
  );
  void connectOwnNetwork(child, slirp, spec.direct);
  return child;
}

async function connectOwnNetwork(child: PipedProcess, slirpPath: string, direct?: boolean): Promise<void> {
  const info = child.stdio[3] as unknown as Readable;
  const block = child.stdio[4] as unknown as Writable;
  block.on('error', () => undefined);
  info.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  let slirp: Slirp | null = null;
  try {
    const started = await Promise.race([readChildPid(info), exited.then(() => null)]);
    // The outer bwrap (unshare exec'd into it) sits in the namespaces slirp must join.
    if (started === null || child.pid === undefined) return;
    slirp = await attachSlirp(slirpPath, child.pid, direct).catch(() => null);
  } catch {
    // No pid: bwrap failed and reports it itself. No slirp: the command runs without network.
  } finally {
    // The info pipe is read to its end (readChildPid's reader stays on), never closed here: bwrap
    // writes the pid first and its namespaces' ids after, and a write to a closed pipe kills it
    // with SIGPIPE. On a busy machine those writes came after the close: the command then ended
    // with no output and no exit code (a format script "failed" so in CI).
    block.end('1');
  }
  if (slirp) await exited.then(() => slirp?.stop());
}
