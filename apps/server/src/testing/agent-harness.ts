import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

/** Pieces the agent-run tests share (scripted-model files, polling, child processes). */

/** The edit every "add subtract" scenario makes to the seeded acme/webapp's src/math.js. */
export const ADD_SUBTRACT_EDIT = {
  path: 'src/math.js',
  old_string: 'export function multiply(a, b) {',
  new_string: 'export function subtract(a, b) {\n  return a - b;\n}\n\nexport function multiply(a, b) {',
};

/**
 * A command that is slow only the first time (its marker lives in .git, so it is never committed):
 * a process killed while it sleeps re-executes it quickly when the run resumes.
 */
export const SLOW_ONCE =
  'if [ -f .git/crash-marker ]; then echo resumed; else touch .git/crash-marker; echo first; sleep 20; fi';

/**
 * A temporary directory removed after the test file. Call it where hooks are declared (a file's or
 * a describe's body): called inside a running test, its removal hook never ran.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes a scripted-model file (docs/agent-tools.md) into a temporary directory; returns its path. */
export function writeScriptFile(scripts: unknown[], dir = tempDir('tandem-script-')): string {
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify({ scripts }));
  return file;
}

/**
 * Polls `probe` every `intervalMs` until it returns something other than undefined. A probe that
 * throws fails the wait at once; probes that expect transient failures catch them themselves.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 60_000, intervalMs = 200 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Signals a child started with `detached: true` and its whole group (sandbox commands too). */
export async function killProcessGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    child.kill(signal);
  }
  await exited;
}

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const serverMain = join(root, 'apps/server/dist/main.js');

export interface TandemProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/**
 * The temporary directory a started process gets (TMPDIR): `tmp` in its data directory, which the
 * test removes. A process these tests kill with SIGKILL cannot remove what it made under
 * os.tmpdir() (its agents' network directories, the local CI's job checkout of a pushed commit),
 * and in the system's /tmp those outlived every CI run.
 */
export function processTmpDir(env: Record<string, string>): string | undefined {
  if (env.TMPDIR) return env.TMPDIR;
  return env.TANDEM_DATA_DIR ? join(env.TANDEM_DATA_DIR, 'tmp') : undefined;
}

/**
 * Starts the built server (`serve` or `worker`) in its own process group, so a SIGKILL also takes
 * the sandbox's commands with it, and waits until `ready` says so; fails with its output if it exits.
 */
export async function startTandemProcess(
  command: 'serve' | 'worker',
  env: Record<string, string>,
  ready: (proc: TandemProcess) => Promise<boolean>,
): Promise<TandemProcess> {
  if (!existsSync(serverMain)) throw new Error(`${serverMain} is missing: build first (npx tsc -b)`);
  let output = '';
  const tmp = processTmpDir(env);
  if (tmp) mkdirSync(tmp, { recursive: true });
  const child = spawn(process.execPath, [serverMain, command], {
    cwd: root,
    detached: true,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, ...(tmp ? { TMPDIR: tmp } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const proc = { child, output: () => output };
  try {
    await until(`${command} to be ready`, async () => {
      if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode})`);
      return (await ready(proc)) ? true : undefined;
    });
  } catch (error) {
    await killProcessGroup(child, 'SIGKILL');
    throw new Error(`${String(error)}\n${output}`, { cause: error });
  }
  return proc;
}
