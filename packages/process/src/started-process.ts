import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';

/**
 * What callers use of a started process, met by Node's ChildProcess and by LaunchedProcess alike:
 * code that takes either (a process started directly, or through the launcher) types it as this.
 */
export interface StartedProcess extends EventEmitter {
  readonly pid?: number | undefined;
  readonly stdio: readonly (Readable | Writable | null | undefined)[];
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  kill(signal?: NodeJS.Signals | number): boolean;
}

/** A started process with its three standard streams as pipes. */
export interface PipedProcess extends StartedProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
}
