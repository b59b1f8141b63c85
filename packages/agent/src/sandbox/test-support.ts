// Helpers shared by this folder's tests (no vitest import so it type-checks with the package).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandbox, type SandboxKind, type SandboxSupport } from './detect.js';

export interface KindCase {
  kind: SandboxKind;
  /** Why the kind cannot run here, or null. */
  skip: string | null;
}

/** Both kinds, bubblewrap marked skipped (with the reason) where the probe says it cannot work. */
export async function sandboxKindCases(): Promise<{ support: SandboxSupport; cases: KindCase[] }> {
  const support = await detectSandbox();
  return {
    support,
    cases: [
      { kind: 'process', skip: null },
      { kind: 'bubblewrap', skip: support.kind === 'bubblewrap' ? null : support.detail },
    ],
  };
}

/** A fresh directory under os.tmpdir() plus its cleanup. */
export async function tempDir(
  prefix = 'tandem-sandbox-test-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A unique `sleep` duration: lets a test find exactly its own processes in /proc afterwards. */
export function uniqueSleep(): string {
  return `${30 + Math.floor(Math.random() * 1000)}.${String(Date.now() % 1000).padStart(3, '0')}`;
}

/** Live (non-zombie) processes whose command line contains `needle`. */
export async function processesMatching(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state !== 'Z' && cmdline.split('\0').join(' ').includes(needle)) pids.push(Number(name));
  }
  return pids;
}

/** Polls until `check` holds (true) or the time is up (false). */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 3000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}
