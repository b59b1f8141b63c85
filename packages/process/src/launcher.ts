import { fork, spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { LaunchedProcess, errnoError } from './launched-process.js';
import type { FromLauncher, StdioKind, ToLauncher } from './protocol.js';
import type { StartedProcess } from './started-process.js';

export interface LaunchOptions {
  cwd?: string;
  /** The whole environment of the process (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Its own process group (and session), so `process.kill(-pid)` reaches everything it starts. */
  detached?: boolean;
  /** Per descriptor from 0: a pipe, or /dev/null. Default three pipes. */
  stdio?: StdioKind[];
}

/**
 * How many nice steps below the server its started processes run unless TANDEM_PROCESS_NICE says:
 * the lowest priority there is, so they take only the CPU the server's own threads leave.
 */
export const DEFAULT_PROCESS_NICE = 19;

/** The launcher's file: the compiled one beside this module, or the TypeScript source in tests. */
function childUrl(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./launcher-child.${extension}`, import.meta.url);
}

function plainEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/**
 * Starts processes from a small helper process instead of this one. Node starts a process with
 * fork(), which copies the page tables of the whole caller and blocks its event loop meanwhile:
 * 10-30 ms from a server of 300 MB (the embedded database's memory counts too), 2-3 ms from a
 * process of 50 MB (bench/README.md). The helper forks instead and hands the pipes back over its
 * IPC channel (a pipe is a handle Node can send), so the server pays a few messages per process.
 *
 * The helper is started on first use and keeps nothing alive: with no process under way its
 * channel is unref'd, and it exits when this process goes.
 */
export class Launcher {
  #child: ChildProcess | undefined;
  readonly #running = new Map<number, { launched: LaunchedProcess; helper: ChildProcess }>();
  #nextId = 1;
  #niceSteps = 0;

  /**
   * Runs what is started from now on `steps` nice steps (0-19) below this process: the launcher
   * lowers its own thread, and what it forks inherits that (docs/decisions.md "Started processes
   * below the server"). Under load the server's event loop and database thread then come first,
   * and git, clones and sandbox plumbing take the cores they leave; on idle cores it changes
   * nothing. Processes already running keep their priority.
   */
  lowerPriority(steps: number): void {
    if (!Number.isInteger(steps) || steps < 0 || steps > 19)
      throw new RangeError(`nice steps must be a whole number from 0 to 19 (got ${steps})`);
    this.#niceSteps = steps;
    if (this.#child?.connected) this.#send(this.#child, { op: 'priority', steps });
  }

  launch(file: string, args: readonly string[], options: LaunchOptions = {}): LaunchedProcess {
    const stdio = options.stdio ?? ['pipe', 'pipe', 'pipe'];
    const id = this.#nextId++;
    const child = this.#helper();
    const launched = new LaunchedProcess(stdio, (signal) => this.#send(child, { op: 'kill', id, signal }));
    this.#running.set(id, { launched, helper: child });
    this.#ref(child);
    this.#send(child, {
      op: 'spawn',
      id,
      file,
      args: [...args],
      cwd: options.cwd,
      env: plainEnv(options.env ?? process.env),
      detached: options.detached ?? false,
      stdio,
    });
    return launched;
  }

  /**
   * Starts the helper now rather than on the first launch, so the first process a server starts
   * (an agent's clone, a sandbox's network) does not wait for a Node process to boot.
   */
  warm(): void {
    this.#helper();
  }

  /** The helper's pid while it runs (tests, logs). */
  get helperPid(): number | undefined {
    return this.#child?.pid;
  }

  /** Stops the helper (tests); processes it started go on, and anything pending fails. */
  close(): void {
    const child = this.#child;
    this.#child = undefined;
    if (!child) return;
    child.disconnect();
    this.#failAll(child, new Error('The process launcher was closed.'));
  }

  #helper(): ChildProcess {
    if (this.#child?.connected) return this.#child;
    const url = childUrl();
    const child = fork(url, [String(this.#niceSteps)], {
      // Nothing of this process's flags (loaders, inspector, profiler): the helper only forks.
      execArgv: url.pathname.endsWith('.ts') ? ['--experimental-strip-types', '--no-warnings'] : [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'json',
    });
    child.on('message', (message: FromLauncher, handle?: Socket) => this.#receive(message, handle));
    child.on('error', (error) => this.#failAll(child, error));
    child.on('exit', () => this.#failAll(child, new Error('The process launcher exited.')));
    child.unref();
    this.#child = child;
    return child;
  }

  #send(child: ChildProcess, message: ToLauncher): void {
    if (!child.connected) return;
    child.send(message, (error) => {
      if (error) this.#failAll(child, error);
    });
  }

  #receive(message: FromLauncher, handle: Socket | undefined): void {
    const launched = this.#running.get(message.id)?.launched;
    if (!launched) {
      handle?.destroy();
      return;
    }
    switch (message.op) {
      case 'spawned':
        launched.started(message.pid);
        return;
      case 'fd':
        if (handle) launched.attach(message.fd, handle);
        return;
      case 'exit':
        this.#done(message.id);
        launched.exited(message.code, message.signal);
        return;
      case 'error':
        if (launched.pid === undefined) this.#done(message.id);
        launched.failed(errnoError(message));
        return;
    }
  }

  #done(id: number): void {
    this.#running.delete(id);
    if (this.#child && ![...this.#running.values()].some((r) => r.helper === this.#child)) {
      this.#unref(this.#child);
    }
  }

  /** Fails what is under way on a helper that is gone; the next launch starts a new one. */
  #failAll(child: ChildProcess, error: Error): void {
    if (this.#child === child) this.#child = undefined;
    for (const [id, running] of this.#running) {
      if (running.helper !== child) continue;
      this.#running.delete(id);
      running.launched.failed(error);
    }
  }

  // While a process is under way the channel keeps this process alive (its exit report is awaited);
  // otherwise it must not.
  #ref(child: ChildProcess): void {
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  #unref(child: ChildProcess): void {
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}

/** The process's launcher. */
export const launcher = new Launcher();

/**
 * Starts `file` with `args` through the process's launcher (see Launcher), or with `direct` from
 * this process (Node's spawn), for a caller that needs the pid at once: such a start blocks the
 * event loop for a fork of the whole process.
 */
export function launch(
  file: string,
  args: readonly string[],
  options: LaunchOptions & { direct?: boolean } = {},
): StartedProcess {
  const { direct, ...rest } = options;
  if (!direct) return launcher.launch(file, args, rest);
  return spawn(file, args, { ...rest, stdio: rest.stdio ?? ['pipe', 'pipe', 'pipe'] });
}
