import { fork, spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { serverEnvAdditions } from '../scripts/server-env.mjs';
import { undoOnInterrupt } from './cleanup.js';
import type { TargetInfo } from './target.js';

export interface RunningTarget extends TargetInfo {
  stop(): Promise<void>;
  /**
   * Sends the target an IPC request and resolves with its answer, the target's next IPC message
   * (bench/agent-target.ts seeds conversations and reports when it has settled).
   */
  ask(message: unknown): Promise<unknown>;
}

const targetScript = fileURLToPath(new URL('./target.ts', import.meta.url));
const agentTargetScript = fileURLToPath(new URL('./agent-target.ts', import.meta.url));
const serverMain = fileURLToPath(new URL('../apps/server/dist/main.js', import.meta.url));

/**
 * What `npm start` adds to the server's environment (scripts/server-env.mjs), so that the bench
 * measures the server as the product starts it; a value in the bench's own environment wins, as it
 * does there. Every process the bench starts gets it, the baselines too: like against like.
 */
export const AS_NPM_START = serverEnvAdditions(process.env);

/** Starts bench/target.ts in a child process (its own event loop and CPU) and waits for its address. */
export async function startTarget(
  kind: 'baseline' | 'tandem' | 'agents',
  env: Record<string, string> = {},
): Promise<RunningTarget> {
  const script = kind === 'agents' ? agentTargetScript : targetScript;
  const child: ChildProcess = fork(script, [kind], {
    execArgv: ['--import', 'tsx'],
    env: { ...AS_NPM_START, ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // Its data directory, known once it is ready: removed here after it exited (TargetInfo.dataDir).
  const owned: { dataDir?: string } = {};
  const stop = undoOnInterrupt(async () => {
    await stopChild(child, 5000);
    if (owned.dataDir) rmSync(owned.dataDir, { recursive: true, force: true });
  });
  const ready = new Promise<TargetInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} did not start within 120 s`)), 120_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as TargetInfo);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} exited with ${code} before it was ready`));
    });
  });
  // A target that never became ready must not outlive the bench.
  const info = await ready.catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  owned.dataDir = info.dataDir;
  return {
    ...info,
    ask: (message) => {
      const answer = new Promise((resolve) => child.once('message', resolve));
      child.send(message as object);
      return answer;
    },
    stop,
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), graceMs).unref();
  });
}

/**
 * The product's own `node apps/server/dist/main.js <command>` (built by `tsc -b`) with `env` as its
 * whole environment (and what `npm start` adds); resolves with the first non-undefined answer of
 * `ready` to a line of its stdout (the rest of its log is dropped). Stopped (SIGTERM, SIGKILL after `graceMs`) when it
 * fails to get ready, and when the bench is interrupted.
 */
export async function startServerProcess<T>(
  command: 'serve' | 'worker',
  options: {
    env: NodeJS.ProcessEnv;
    stderr: 'inherit' | 'ignore';
    graceMs: number;
    ready: (line: string) => T | undefined;
  },
): Promise<{ pid: number; ready: T; exitCode(): number | null; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [serverMain, command], {
    env: { ...AS_NPM_START, ...options.env },
    stdio: ['ignore', 'pipe', options.stderr],
  });
  const lines = createInterface({ input: child.stdout! });
  const stop = undoOnInterrupt(() => stopChild(child, options.graceMs));
  try {
    const ready = await new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command} did not start within 120 s`)), 120_000);
      lines.on('line', (line) => {
        const answer = options.ready(line);
        if (answer === undefined) return;
        clearTimeout(timer);
        resolve(answer);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} exited with ${code} before it was ready`));
      });
    });
    return { pid: child.pid!, ready, exitCode: () => child.exitCode, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A `worker` process with `env` over this process's environment, once it says it is running. */
export async function startWorkerProcess(
  env: Record<string, string>,
): Promise<{ pid: number; stop(): Promise<void> }> {
  return startServerProcess('worker', {
    env: { ...process.env, ...env },
    stderr: 'inherit',
    // The worker stops within 10 s of SIGTERM (main.ts): its runs are handed back to the queue.
    graceMs: 12_000,
    ready: (line) => (line.startsWith('Tandem agent worker is running') ? true : undefined),
  });
}

/** Resident memory of a process in MB (Linux /proc), or null elsewhere. */
export async function rssMb(pid: number): Promise<number | null> {
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}
