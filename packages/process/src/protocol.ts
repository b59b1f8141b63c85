/**
 * Messages between a server process and its launcher (launcher.ts, launcher-child.ts). Plain JSON
 * over the IPC channel; a stdio pipe travels as the handle of an `fd` message.
 */
export type StdioKind = 'pipe' | 'ignore';

export interface LaunchRequest {
  op: 'spawn';
  id: number;
  file: string;
  args: string[];
  cwd: string | undefined;
  env: Record<string, string>;
  detached: boolean;
  stdio: StdioKind[];
}

export interface KillRequest {
  op: 'kill';
  id: number;
  signal: NodeJS.Signals | number;
}

/** Everything started from now on runs `steps` nice steps below the server (launcher.ts). */
export interface PriorityRequest {
  op: 'priority';
  steps: number;
}

export type ToLauncher = LaunchRequest | KillRequest | PriorityRequest;

export type FromLauncher =
  /** Started; the `fd` messages of its pipes follow, then `exit`. */
  | { op: 'spawned'; id: number; pid: number }
  /** One of the process's pipes, sent as the message's handle. */
  | { op: 'fd'; id: number; fd: number }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  /** Not started (spawn failed), or failed after starting: Node's error, rebuilt on this side. */
  | {
      op: 'error';
      id: number;
      message: string;
      code: string | undefined;
      errno: number | undefined;
      syscall: string | undefined;
      path: string | undefined;
    };
