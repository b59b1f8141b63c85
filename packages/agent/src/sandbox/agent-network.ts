import { launch, type StartedProcess } from '@tandem/process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { findBwrap, findProgram } from './bwrap.js';
import { watchHelper } from './helper-process.js';
import { PortBridge } from './port-bridge.js';
import { attachSlirp, findSlirp, type Slirp } from './slirp.js';

const HOLDER_TIMEOUT_MS = 10_000;
/**
 * How often a holder whose sandbox setup failed is started again. bubblewrap 0.8 sometimes fails
 * to configure a new namespace's loopback ("loopback: Failed RTM_NEWADDR: No child processes",
 * seen here in about one holder in twenty-five while browser tests ran), after it has reported the
 * sandbox's pid; every command of that agent then failed in nsenter.
 */
const HOLDER_ATTEMPTS = 3;
/** The holder's command: it says so once the sandbox is set up, then waits for ever. */
const HOLDER_COMMAND = ['/bin/sh', '-c', 'echo ready && exec /bin/sleep infinity'];

export interface AgentNetworkOptions {
  /** Reach the outside world through slirp4netns (TANDEM_SANDBOX_NETWORK=on). */
  internet: boolean;
  /** Tests: the holder's command for each attempt (1, 2, …); it must print a line once it runs. */
  holderCommand?: (attempt: number) => string[];
}

/** The holder ended before its sandbox was ready: worth starting again. */
class HolderExited extends Error {}

/** Reads bwrap's --info-fd JSON and returns the sandbox's first process as seen from here. */
export function readChildPid(info: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      text += chunk;
      const match = /"child-pid"\s*:\s*(\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    info.on('error', reject);
    info.on('end', () => reject(new Error(`bwrap reported no child pid${text ? `: ${text}` : ''}`)));
  });
}

/**
 * One agent's network: a network namespace (with its own user namespace) that every command of the
 * agent joins, so a dev server started in one shell is at localhost:PORT for the next command and
 * for nobody else. A tiny holder process (`bwrap … sleep infinity`) keeps the namespaces alive;
 * slirp4netns gives them user-mode internet access without ever exposing the host's loopback.
 * Created when the agent's sandbox is prepared, disposed with it; every process involved dies with
 * the server (bwrap --die-with-parent, slirp's exit pipe, the bridge's stdin).
 */
export class AgentNetwork {
  private bridge: Promise<PortBridge> | null = null;
  private disposed = false;

  private constructor(
    private readonly holder: StartedProcess,
    /** The holder's sandboxed process: nsenter's target. */
    readonly pid: number,
    private readonly holderExited: Promise<void>,
    private readonly slirp: Slirp | null,
    /** Private host directory of the port bridge's socket. */
    readonly runtimeDir: string,
    /** Whether commands reach the outside world (through slirp4netns). */
    readonly internet: boolean,
    /** Why there is no internet access when it was asked for, else ''. */
    readonly detail: string,
  ) {}

  static async create(options: AgentNetworkOptions): Promise<AgentNetwork> {
    const bwrap = findBwrap();
    if (!bwrap) throw new Error('agent network needs bubblewrap, and bwrap is not on PATH');
    let holder: Holder | undefined;
    for (let attempt = 1; !holder; attempt++) {
      try {
        holder = await startHolder(bwrap, options.holderCommand?.(attempt) ?? HOLDER_COMMAND);
      } catch (error) {
        if (!(error instanceof HolderExited) || attempt >= HOLDER_ATTEMPTS) throw error;
      }
    }
    const { pid } = holder;
    let slirp: Slirp | null = null;
    let detail = '';
    if (options.internet) {
      const path = findSlirp();
      if (!path) detail = 'slirp4netns not found on PATH: no network';
      else {
        try {
          slirp = await attachSlirp(path, pid);
        } catch (error) {
          detail = `${error instanceof Error ? error.message : String(error)}: no network`;
        }
      }
    }
    const runtimeDir = mkdtempSync(join(tmpdir(), 'tandem-net-'));
    return new AgentNetwork(holder.process, pid, holder.exited, slirp, runtimeDir, slirp !== null, detail);
  }

  /** Placed before bwrap: enters the agent's user and network namespaces. */
  enterArgs(): string[] {
    if (this.disposed) throw new Error('agent network was disposed');
    const nsenter = findProgram('nsenter') ?? 'nsenter';
    // --preserve-credentials: no setgroups(), which an unprivileged user namespace forbids.
    return [nsenter, `--target=${this.pid}`, '--user', '--net', '--preserve-credentials', '--'];
  }

  /**
   * Makes `port` (listening inside the namespace) reachable at the returned port on `host`, for the
   * preview proxy. The namespace's port itself is never on the host.
   */
  async forward(port: number, host: string): Promise<number> {
    if (this.disposed) throw new Error('agent network was disposed');
    this.bridge ??= PortBridge.start(this.enterArgs(), join(this.runtimeDir, 'bridge.sock'));
    try {
      return await (await this.bridge).forward(port, host);
    } catch (error) {
      this.bridge = null;
      throw error;
    }
  }

  async unforward(port: number): Promise<void> {
    await (await this.bridge?.catch(() => null))?.unforward(port);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await (await this.bridge?.catch(() => null))?.stop();
    await this.slirp?.stop();
    // The sandboxed process first: the outer bwrap then reaps it and exits by itself, so nothing is
    // left for init to reap. The outer one is killed too if it lingers.
    try {
      process.kill(this.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    const timer = setTimeout(() => this.holder.kill('SIGKILL'), 1000);
    await this.holderExited;
    clearTimeout(timer);
    // Off the event loop: a synchronous removal of the directory (its socket and the bridge's
    // files) blocked every other request for a millisecond or so per agent ended.
    await rm(this.runtimeDir, { recursive: true, force: true });
  }
}

interface Holder {
  process: StartedProcess;
  /** The sandboxed process, as seen from here. */
  pid: number;
  exited: Promise<void>;
}

/**
 * Starts a holder and resolves once its sandbox is set up: bwrap reports the sandbox's pid before
 * the setup inside is done, so the command's first line is what says it is. A holder that exits
 * first rejects with HolderExited (and its stderr), one that takes too long is killed.
 */
async function startHolder(bwrap: string, command: string[]): Promise<Holder> {
  // Through the launcher (@tandem/process): a start from here blocks the event loop for a fork of
  // the whole server. bwrap's --die-with-parent then follows the launcher, which exits with us.
  const holder = launch(bwrap, holderArgs(command), {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    env: { PATH: '/usr/bin:/bin' },
  });
  const { exited, stderr } = watchHelper(holder);
  holder.stdin?.on('error', () => undefined);
  const stdout = holder.stdout as Readable;
  const ready = new Promise<void>((resolve) => stdout.once('data', () => resolve()));
  try {
    const [pid] = await withTimeout(
      Promise.race([
        Promise.all([readChildPid(holder.stdio[3] as Readable), ready]),
        exited.then(() => Promise.reject(new HolderExited(`bwrap exited: ${stderr().trim()}`))),
      ]),
      HOLDER_TIMEOUT_MS,
    );
    // Nothing more comes; read on so that a stray write never blocks the holder.
    stdout.resume();
    return { process: holder, pid, exited };
  } catch (error) {
    holder.kill('SIGKILL');
    await exited;
    throw error;
  }
}

/** The holder: nothing but `command` in fresh user (uid 0 there = the server's uid), net, pid namespaces. */
function holderArgs(command: string[]): string[] {
  const args = ['--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib'];
  args.push('--symlink', 'usr/lib64', '/lib64', '--proc', '/proc', '--dev', '/dev');
  args.push('--unshare-user', '--uid', '0', '--gid', '0', '--unshare-net', '--unshare-pid');
  args.push('--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  args.push('--die-with-parent', '--cap-drop', 'ALL', '--clearenv', '--info-fd', '3');
  args.push(...command);
  return args;
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('agent network did not start in time')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
