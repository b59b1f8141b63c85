import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withWorkspaceLock, workspaceLockPath } from './workspace-lock.js';

const AGENT = '3f0c8a7e-0000-4000-8000-000000000001';
const lockModule = fileURLToPath(new URL('./workspace-lock.ts', import.meta.url));
const FAST = { pollMs: 10, heartbeatMs: 20 };

/** Writes a lock as some holder would have left it. */
async function plantLock(root: string, owner: { pid: number; host: string }) {
  const path = workspaceLockPath(root, AGENT);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ ...owner, token: 'theirs' }));
  return path;
}

describe('withWorkspaceLock', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tandem-lock-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lets one holder at a time prepare an agent in one process, and leaves no lock behind', async () => {
    const events: string[] = [];
    const holder = (name: string) =>
      withWorkspaceLock(
        root,
        AGENT,
        async () => {
          events.push(`${name} in`);
          await new Promise((r) => setTimeout(r, 50));
          events.push(`${name} out`);
          return name;
        },
        FAST,
      );
    // 'b' asks while 'a' holds the lock. Asked at the same tick, either could win the file's
    // creation (both go through the thread pool), and the order below would be luck.
    const a = holder('a');
    while (!events.includes('a in')) await new Promise((r) => setTimeout(r, 1));
    expect(await Promise.all([a, holder('b')])).toEqual(['a', 'b']);
    expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
    // Another agent's workspace is not held up by it.
    await withWorkspaceLock(root, 'another-agent', async () => undefined, FAST);
    expect(existsSync(workspaceLockPath(root, AGENT))).toBe(false);
  });

  it('releases the lock when the work fails', async () => {
    await expect(
      withWorkspaceLock(root, AGENT, () => Promise.reject(new Error('clone failed')), FAST),
    ).rejects.toThrow('clone failed');
    expect(existsSync(workspaceLockPath(root, AGENT))).toBe(false);
  });

  it('waits for another process that holds it', async () => {
    // A second worker process, holding the lock for 600 ms.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { withWorkspaceLock } = await import(${JSON.stringify(lockModule)});
         await withWorkspaceLock(${JSON.stringify(root)}, ${JSON.stringify(AGENT)}, async () => {
           console.log('held');
           await new Promise((r) => setTimeout(r, 600));
           console.log('releasing');
         });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout! });
    const said: { line: string; at: number }[] = [];
    const held = new Promise<void>((resolve) =>
      lines.on('line', (line) => {
        said.push({ line, at: Date.now() });
        if (line === 'held') resolve();
      }),
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await held;
    const enteredAt = await withWorkspaceLock(root, AGENT, async () => Date.now(), FAST);
    await exited;
    const releasing = said.find((s) => s.line === 'releasing');
    expect(releasing).toBeDefined();
    expect(enteredAt).toBeGreaterThanOrEqual(releasing!.at);
  });

  it('takes over a lock whose holder on this host has died', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await plantLock(root, { pid: gone, host: hostname() });
    const started = Date.now();
    expect(await withWorkspaceLock(root, AGENT, async () => 'mine', FAST)).toBe('mine');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits for a live holder of another host until its lock goes silent', async () => {
    const path = await plantLock(root, { pid: process.pid, host: 'another-host' });
    // Touched now: held. Untouched for longer than staleMs: abandoned.
    const started = Date.now();
    const entered = withWorkspaceLock(root, AGENT, async () => Date.now(), { ...FAST, staleMs: 400 });
    const enteredAt = await entered;
    expect(enteredAt - started).toBeGreaterThanOrEqual(300);
    expect(existsSync(path)).toBe(false);
  });

  it('keeps its own lock fresh while it works, so a long preparation is not taken over', async () => {
    const events: string[] = [];
    const long = withWorkspaceLock(
      root,
      AGENT,
      async () => {
        events.push('long in');
        await new Promise((r) => setTimeout(r, 500));
        events.push('long out');
      },
      { ...FAST, staleMs: 200 },
    );
    await new Promise((r) => setTimeout(r, 20));
    await withWorkspaceLock(root, AGENT, async () => void events.push('next in'), { ...FAST, staleMs: 200 });
    await long;
    expect(events).toEqual(['long in', 'long out', 'next in']);
  });

  it('gives up after the longest wait, naming the holder', async () => {
    const path = await plantLock(root, { pid: process.pid, host: 'another-host' });
    const keepFresh = setInterval(() => void utimes(path, new Date(), new Date()).catch(() => {}), 20);
    try {
      await expect(
        withWorkspaceLock(root, AGENT, async () => 'never', { ...FAST, maxWaitMs: 200 }),
      ).rejects.toThrow(
        `The agent's workspace is still being prepared by process ${process.pid} on another-host after 1 s`,
      );
    } finally {
      clearInterval(keepFresh);
    }
    // Someone else's lock is left alone.
    expect(existsSync(path)).toBe(true);
  });
});
