import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One `run:` step for the runner: a bash script in a job's workspace. */
export interface CiCommand {
  command: string;
  /** Absolute; inside `workspace`. */
  cwd: string;
  /** The job's temp directory: the only place the command may write (and, sandboxed, see). */
  workspace: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Jobs need no network: the sandbox gives them loopback only. */
  network: false;
  /** Aborted when the code host stops: the command's process tree is killed. */
  signal?: AbortSignal;
}

export interface CiCommandResult {
  exitCode: number | null;
  /** stdout and stderr interleaved. */
  output: string;
  truncated: boolean;
  timedOut: boolean;
}

/**
 * Runs one step. The code host cannot import @tandem/agent's bubblewrap sandbox (the agent
 * package depends on the database and the model runtime; the code host is a leaf that only
 * depends on shared), so whoever starts the code host injects it: the server passes the agent's
 * `runCommand`, whose signature this matches. Without one, `processRunner` below is used.
 */
export type CiCommandRunner = (command: CiCommand) => Promise<CiCommandResult>;

const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * An unsandboxed fallback for the standalone code host and its own tests: a plain child process
 * with an environment built from scratch (none of the code host's own variables), its own process
 * group killed on timeout, and capped output. It isolates nothing on disk or network: a person
 * must opt in to it (CODEHOST_CI=process), and the product always injects bubblewrap instead.
 */
export const processRunner: CiCommandRunner = (command) =>
  new Promise((resolve, reject) => {
    const home = join(command.workspace, '.home');
    mkdirSync(home, { recursive: true });
    const child = spawn('bash', ['-c', command.command], {
      cwd: command.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: `${BASE_PATH}:${dirname(process.execPath)}`,
        HOME: home,
        LANG: 'C.UTF-8',
        TERM: 'dumb',
        npm_config_update_notifier: 'false',
        ...command.env,
      },
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    const collect = (chunk: Buffer) => {
      const room = command.maxOutputBytes - kept;
      if (chunk.length > room) truncated = true;
      if (room <= 0) return;
      const part = chunk.subarray(0, room);
      chunks.push(part);
      kept += part.length;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 2000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, command.timeoutMs);
    command.signal?.addEventListener('abort', stop, { once: true });
    if (command.signal?.aborted) stop();
    const done = () => {
      clearTimeout(timer);
      command.signal?.removeEventListener('abort', stop);
    };
    child.on('error', (error) => {
      done();
      reject(error);
    });
    child.on('exit', () => {
      // Background jobs a step leaves behind die with it, as they do in a bubblewrap pid namespace.
      killGroup('SIGKILL');
    });
    child.on('close', (code) => {
      done();
      resolve({ exitCode: code, output: Buffer.concat(chunks).toString('utf8'), truncated, timedOut });
    });
  });
