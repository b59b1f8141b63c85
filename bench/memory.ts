/**
 * Idle memory of the real server (`node apps/server/dist/main.js serve`, as `npm start` runs it) on
 * PGlite: once on its first start, which creates the database, and once restarted on the same data
 * directory, beside a bare Fastify process. Each is read a few seconds after the server answers
 * (shown) and once it has idled (judged): start-up leaves V8's heap at its high-water mark until its
 * memory reducer gives the pages back (bench/idle-rss.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure } from './report.js';
import { undoOnInterrupt } from './cleanup.js';
import { idleRssMb } from './idle-rss.js';
import { AS_NPM_START, startServerProcess, stopChild } from './servers.js';

/** The goal for an idle server on PGlite. */
export const IDLE_RSS_GOAL_MB = 250;

/**
 * The server's address from its log line saying it listens (pino's JSON lines on stdout): with
 * PORT=0 the port is only known from there. The code host logs the same line with its own
 * component, so the server's is the one without.
 */
function listeningUrl(line: string): string | undefined {
  let entry: { msg?: string; component?: string };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return undefined;
  }
  const url = /^Server listening at (http:\/\/\S+)$/.exec(entry.msg ?? '')?.[1];
  return url && !entry.component ? url : undefined;
}

async function untilHealthy(url: string, exitCode: () => number | null): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (exitCode() !== null) throw new Error(`the server exited with ${exitCode()}`);
    const ok = await fetch(`${url}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not answer /api/health within 120 s');
}

/** Starts the server on `dataDir`; its RSS `idleMs` after it answers, and once it has idled. */
async function idleRss(dataDir: string, idleMs: number): Promise<{ idle: number; atStart: number } | null> {
  const server = await startServerProcess('serve', {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TANDEM_DATA_DIR: dataDir,
      PORT: '0',
      CODEHOST_PORT: '0',
      STRIPE_LOCAL_PORT: '0',
      HOST: '127.0.0.1',
    },
    stderr: 'ignore',
    graceMs: 10_000,
    ready: listeningUrl,
  });
  try {
    await untilHealthy(server.ready, server.exitCode);
    await new Promise((r) => setTimeout(r, idleMs));
    return await idleRssMb(server.pid);
  } finally {
    await server.stop();
  }
}

/** A bare Fastify process answering one JSON route, idle: the baseline. */
async function bareFastifyRss(idleMs: number): Promise<{ idle: number; atStart: number } | null> {
  const script = `import Fastify from 'fastify';
const app = Fastify();
app.get('/', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...AS_NPM_START },
    stdio: 'ignore',
  });
  const stop = undoOnInterrupt(() => stopChild(child, 1000));
  try {
    await new Promise((r) => setTimeout(r, idleMs));
    return await idleRssMb(child.pid!);
  } finally {
    await stop();
  }
}

export async function memoryFigures(options: { idleMs: number }): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tandem-bench-memory-'));
  try {
    const baseRss = await bareFastifyRss(options.idleMs);
    const first = await idleRss(dataDir, options.idleMs);
    const restarted = await idleRss(dataDir, options.idleMs);
    if (first === null || restarted === null || baseRss === null) return [];
    return [
      { label: 'first start', rss: first },
      { label: 'restarted', rss: restarted },
    ].map(({ label, rss }) => ({
      name: `idle memory (pglite, ${label}), RSS MB`,
      baseline: baseRss.idle,
      tandem: rss.idle,
      ratio: rss.idle / baseRss.idle,
      detail: `baseline: bare Fastify; ${rss.atStart} MB ${options.idleMs / 1000} s after it answered`,
      goal: `≤ ${IDLE_RSS_GOAL_MB} MB`,
      ok: rss.idle <= IDLE_RSS_GOAL_MB,
    }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
