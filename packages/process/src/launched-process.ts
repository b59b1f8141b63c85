import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { HandedSocket } from './handed-socket.js';
import type { FromLauncher, StdioKind } from './protocol.js';

/** Node's error for a process that could not be started, rebuilt from the launcher's report. */
export function errnoError(report: Extract<FromLauncher, { op: 'error' }>): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(report.message);
  if (report.code !== undefined) error.code = report.code;
  if (report.errno !== undefined) error.errno = report.errno;
  if (report.syscall !== undefined) error.syscall = report.syscall;
  if (report.path !== undefined) error.path = report.path;
  return error;
}

/**
 * A process started by the launcher, shaped like Node's ChildProcess for what callers use: `stdio`
 * streams there from the start (the pipes arrive a moment later and are joined to them), `pid` once
 * started, `kill()`, and the 'spawn', 'error', 'exit' and 'close' events in Node's order ('close'
 * after 'exit' and the end of every output pipe).
 */
export class LaunchedProcess extends EventEmitter {
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly stdio: (HandedSocket | null)[];
  #exited = false;
  #failed = false;
  #closed = false;
  #openOutputs = 0;

  constructor(
    stdio: StdioKind[],
    private readonly sendKill: (signal: NodeJS.Signals | number) => void,
  ) {
    super();
    this.stdio = stdio.map((kind) => (kind === 'pipe' ? new HandedSocket() : null));
    this.#openOutputs = this.stdio.filter((s, fd) => s && fd !== 0).length;
  }

  get stdin(): Writable | null {
    return (this.stdio[0] as Writable | null) ?? null;
  }

  get stdout(): Readable | null {
    return (this.stdio[1] as Readable | null) ?? null;
  }

  get stderr(): Readable | null {
    return (this.stdio[2] as Readable | null) ?? null;
  }

  /** Sends `signal` to the process unless it has exited; true when it was sent. */
  kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    if (this.#exited || this.#failed) return false;
    this.sendKill(signal);
    return true;
  }

  /** @internal the launcher's `spawned` report. */
  started(pid: number): void {
    this.pid = pid;
    this.emit('spawn');
  }

  /** @internal one of the process's pipes, handed over by the launcher. */
  attach(fd: number, socket: Socket): void {
    const stream = this.stdio[fd];
    if (!stream) {
      socket.destroy();
      return;
    }
    // stdin's errors (EPIPE once the child is gone) are the child's loss, as callers expect of
    // Node's own stdin; they must not be unhandled here.
    if (fd === 0) stream.on('error', () => undefined);
    else {
      // As with Node, the process closes once its output pipes have: 'end' once the caller has
      // had every byte, 'close' alone when one was destroyed instead.
      let counted = false;
      const closed = () => {
        if (counted) return;
        counted = true;
        this.outputClosed();
      };
      stream.once('end', closed);
      stream.once('close', closed);
    }
    stream.attach(socket);
  }

  /** @internal the launcher saw the process exit. */
  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exited) return;
    this.#exited = true;
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
    // As Node does on exit: an output nobody listens to is drained, so it ends and 'close' comes.
    this.stdio.forEach((stream, fd) => {
      if (
        fd > 0 &&
        stream?.readable &&
        !stream.readableFlowing &&
        stream.listenerCount('data') === 0 &&
        stream.listenerCount('readable') === 0
      ) {
        stream.resume();
      }
    });
    this.maybeClose();
  }

  /** @internal the process could not be started, or the launcher is gone. */
  failed(error: Error): void {
    if (this.#exited || this.#failed) return;
    this.#failed = true;
    if (this.pid === undefined) {
      // Never started: no pipe will come, and Node reports such a process as closed with no code.
      for (const stream of this.stdio) stream?.destroy();
      this.emit('error', error);
      this.#openOutputs = 0;
      this.maybeClose();
      return;
    }
    this.emit('error', error);
  }

  private outputClosed(): void {
    this.#openOutputs -= 1;
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.#closed || this.#openOutputs > 0 || !(this.#exited || this.#failed)) return;
    this.#closed = true;
    // Later, as with Node: who awaited 'error' or 'exit' can still listen for 'close'.
    setImmediate(() => this.emit('close', this.exitCode, this.signalCode));
  }
}
