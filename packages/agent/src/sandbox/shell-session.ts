import type { PipedProcess } from '@tandem/process';
import { detectSandboxSync, type SandboxKind } from './detect.js';
import type { RunOptions } from './exec.js';
import { listeningPorts, signalProcess, terminateTree } from './process-tree.js';
import { spawnSandboxed } from './spawn.js';

export type ShellEvent =
  | { type: 'stdout'; data: string }
  | { type: 'exit'; exitCode: number | null; signal: string | null }
  | { type: 'ports'; ports: number[] };

export type ShellStartOptions = Omit<RunOptions, 'timeoutMs' | 'maxOutputBytes' | 'stdin' | 'signal'> & {
  /** Default 2 h: a forgotten dev server must not run forever. */
  maxLifetimeMs?: number;
};

const DEFAULT_MAX_LIFETIME_MS = 2 * 60 * 60 * 1000;
const MAX_BUFFERED_CHARS = 1024 * 1024;
const PORT_POLL_MS = 1000;
const PIPE_DRAIN_MS = 500;

/** A long-running `bash -c` (a dev server, a REPL) the agent writes to and reads from over time. */
export class ShellSession {
  readonly pid: number;
  readonly startedAt = Date.now();
  readonly kind: SandboxKind;

  private buffer: string[] = [];
  private buffered = 0;
  private readonly listeners = new Set<(event: ShellEvent) => void>();
  private isRunning = true;
  private code: number | null = null;
  private readonly exited: Promise<void>;
  private readonly finished: Promise<void>;
  private ports: number[] = [];
  private readonly pollTimer: NodeJS.Timeout;
  private readonly lifetimeTimer: NodeJS.Timeout;
  private stopping: Promise<void> | null = null;
  private polling = false;

  static start(options: ShellStartOptions): ShellSession {
    const kind = options.kind ?? detectSandboxSync().kind;
    // Started from here: the session needs its pid now (a launched process has it a moment later).
    const child = spawnSandboxed({ ...options, kind, direct: true });
    if (child.pid === undefined) {
      // spawn reports ENOENT & co. asynchronously; swallow that event, the throw below says it.
      child.on('error', () => undefined);
      throw new Error(`could not start shell (${kind})`);
    }
    return new ShellSession(child, child.pid, kind, options.maxLifetimeMs ?? DEFAULT_MAX_LIFETIME_MS);
  }

  private constructor(
    private readonly child: PipedProcess,
    pid: number,
    kind: SandboxKind,
    maxLifetimeMs: number,
  ) {
    this.pid = pid;
    this.kind = kind;
    const onData = (data: string) => this.append(data);
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.stdin.on('error', () => undefined); // EPIPE after the shell exits
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    this.finished = this.exited.then(async () => {
      // Leftover background jobs would hold the pipes open (bwrap's namespace kills them anyway).
      signalProcess(-pid, 'SIGKILL');
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, PIPE_DRAIN_MS))]);
      this.finish();
    });
    this.pollTimer = setInterval(() => void this.pollPorts(), PORT_POLL_MS);
    this.pollTimer.unref();
    this.lifetimeTimer = setTimeout(() => void this.stop(), maxLifetimeMs);
    this.lifetimeTimer.unref();
  }

  get running(): boolean {
    return this.isRunning;
  }

  /** Null while running and when the shell was killed by a signal. */
  get exitCode(): number | null {
    return this.code;
  }

  onEvent(listener: (event: ShellEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  write(input: string): void {
    if (!this.isRunning || this.child.stdin.destroyed) throw new Error('shell session has exited');
    this.child.stdin.write(input);
  }

  /** Everything buffered since the last call (at most the newest 1 Mi characters). */
  readOutput(): string {
    const text = this.buffer.join('');
    this.buffer = [];
    this.buffered = 0;
    return text;
  }

  /** Resolves once output has been quiet for idleMs, maxMs have passed, or the shell exited. */
  waitForOutput(options: { idleMs: number; maxMs: number }): Promise<string> {
    if (!this.isRunning) return Promise.resolve(this.readOutput());
    return new Promise((resolve) => {
      let idle: NodeJS.Timeout | undefined;
      let unsubscribe: () => void = () => undefined;
      const done = () => {
        clearTimeout(idle);
        clearTimeout(max);
        unsubscribe();
        resolve(this.readOutput());
      };
      idle = setTimeout(done, options.idleMs);
      const max = setTimeout(done, options.maxMs);
      unsubscribe = this.onEvent((event) => {
        if (event.type === 'exit') return done();
        if (event.type !== 'stdout') return;
        clearTimeout(idle);
        idle = setTimeout(done, options.idleMs);
      });
    });
  }

  listeningPorts(): Promise<number[]> {
    return this.isRunning ? listeningPorts(this.pid) : Promise.resolve([]);
  }

  /** SIGTERM the tree, SIGKILL after 2 s; resolves once the shell has exited. */
  stop(): Promise<void> {
    if (!this.isRunning) return Promise.resolve();
    this.stopping ??= terminateTree(this.pid, {
      exited: this.exited,
      rootIsBwrap: this.kind === 'bubblewrap',
    }).then(() => this.finished);
    return this.stopping;
  }

  private append(data: string): void {
    this.buffer.push(data);
    this.buffered += data.length;
    while (this.buffered > MAX_BUFFERED_CHARS && this.buffer.length > 0) {
      const excess = this.buffered - MAX_BUFFERED_CHARS;
      const oldest = this.buffer[0] as string;
      if (oldest.length <= excess) {
        this.buffer.shift();
        this.buffered -= oldest.length;
      } else {
        this.buffer[0] = oldest.slice(excess);
        this.buffered -= excess;
      }
    }
    this.emit({ type: 'stdout', data });
  }

  private async pollPorts(): Promise<void> {
    if (this.polling) return; // a slow /proc scan must not pile up
    this.polling = true;
    try {
      const ports = await this.listeningPorts();
      // The session may have exited while /proc was being read.
      if (this.isRunning) this.setPorts(ports);
    } finally {
      this.polling = false;
    }
  }

  private setPorts(ports: number[]): void {
    if (ports.join(',') === this.ports.join(',')) return;
    this.ports = ports;
    this.emit({ type: 'ports', ports });
  }

  private finish(): void {
    clearInterval(this.pollTimer);
    clearTimeout(this.lifetimeTimer);
    this.setPorts([]);
    this.isRunning = false;
    this.code = this.child.exitCode;
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    this.child.stdin.destroy();
    this.emit({ type: 'exit', exitCode: this.code, signal: this.child.signalCode });
  }

  private emit(event: ShellEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        console.error('shell session listener failed', error);
      }
    }
  }
}
