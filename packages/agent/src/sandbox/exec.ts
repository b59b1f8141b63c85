import type { AgentNetwork } from './agent-network.js';
import { detectSandbox, type SandboxKind } from './detect.js';
import { signalProcess, terminateTree } from './process-tree.js';
import { spawnSandboxed } from './spawn.js';

export { sandboxEnv } from './spawn.js';

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** After the shell exits, how long to wait for pipes held open by escaped daemons. */
const PIPE_DRAIN_MS = 500;

export interface RunOptions {
  /** Run with `bash -c` (not a login shell) inside the workspace. */
  command: string;
  /** Absolute path of the workspace dir or a subdir of it. */
  cwd: string;
  /** Absolute workspace root: the only writable place under bubblewrap. */
  workspace: string;
  /** Extra env (the repository's secrets); the server's own process.env never leaks in. */
  env?: Record<string, string>;
  /** Kills the whole process tree (SIGTERM, then SIGKILL after 2 s). */
  timeoutMs: number;
  /** Default 1 MiB; output beyond it is dropped and `truncated` set. */
  maxOutputBytes?: number;
  stdin?: string;
  /**
   * Default true; false → loopback only under bubblewrap (not enforceable in process mode). Under
   * bubblewrap, true never means the host's network: see SpawnSpec.network.
   */
  network?: boolean;
  /** The agent's network namespace, shared by all its commands (bubblewrap only). */
  agentNetwork?: AgentNetwork | null;
  signal?: AbortSignal;
  /** Default: detectSandbox().kind. */
  kind?: SandboxKind;
}

export interface RunResult {
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr interleaved as they arrive. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** The sandbox the command actually ran in. */
  kind: SandboxKind;
  /** False when `network: false` was asked for but could not be enforced (process mode). */
  networkIsolated: boolean;
}

export async function runCommand(options: RunOptions): Promise<RunResult> {
  const kind = options.kind ?? (await detectSandbox()).kind;
  const started = Date.now();
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const networkIsolated = options.network === false && kind === 'bubblewrap';
  const result = (partial: Partial<RunResult>): RunResult => ({
    exitCode: null,
    signal: null,
    output: '',
    truncated: false,
    timedOut: false,
    aborted: false,
    durationMs: Date.now() - started,
    kind,
    networkIsolated,
    ...partial,
  });
  if (options.signal?.aborted) return result({ aborted: true });

  const child = spawnSandboxed({ ...options, kind });
  const chunks: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  const collect = (chunk: Buffer) => {
    if (kept >= maxBytes) {
      truncated = true;
      return;
    }
    const part = chunk.length > maxBytes - kept ? chunk.subarray(0, maxBytes - kept) : chunk;
    truncated ||= part.length < chunk.length;
    chunks.push(part);
    kept += part.length;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  child.stdin.on('error', () => {
    // EPIPE when the command exits without reading its input: not an error of ours.
  });
  child.stdin.end(options.stdin ?? '');

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', reject);
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

  let timedOut = false;
  let aborted = false;
  let killing: Promise<void> | null = null;
  const kill = (): void => {
    // Started through the launcher, the pid comes a moment after the start: a stop before it
    // waits for it. (A process that never starts reports an error and is not waited for.)
    if (child.pid === undefined) {
      child.once('spawn', kill);
      return;
    }
    killing ??= terminateTree(child.pid, { exited, rootIsBwrap: kind === 'bubblewrap' });
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  const onAbort = () => {
    aborted = true;
    kill();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const { code, signal } = await exited;
    // One-shot commands do not get to leave background jobs behind (bwrap's pid namespace kills
    // them anyway), and those jobs would otherwise hold our pipes open.
    if (child.pid !== undefined) signalProcess(-child.pid, 'SIGKILL');
    await killing;
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, PIPE_DRAIN_MS))]);
    return result({
      exitCode: code,
      signal,
      output: Buffer.concat(chunks).toString('utf8'),
      truncated,
      timedOut,
      aborted,
      durationMs: Date.now() - started,
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    child.stdout.destroy();
    child.stderr.destroy();
  }
}
