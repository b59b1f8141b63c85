import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { isAlive } from './process-tree.js';

/**
 * Where the lock of an agent's workspace lives: beside the workspaces, in a directory no sandbox
 * is given, so nothing an agent runs can take, forge or remove it.
 */
export const workspaceLockPath = (root: string, agentId: string) => join(root, '.locks', `${agentId}.lock`);

/** Who holds a lock: its file's content. */
interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

export interface WorkspaceLockOptions {
  /** How often a lock held elsewhere is looked at again. */
  pollMs?: number;
  /** How often the holder touches its lock, so others can tell it is still at work. */
  heartbeatMs?: number;
  /** A lock untouched this long is abandoned, whoever holds it (a process on another host). */
  staleMs?: number;
  /** The longest wait for a lock held elsewhere before giving up with an error. */
  maxWaitMs?: number;
}

const DEFAULTS: Required<WorkspaceLockOptions> = {
  pollMs: 100,
  heartbeatMs: 15_000,
  staleMs: 90_000,
  // Longer than a clone and the setup script's 10 minutes together.
  maxWaitMs: 20 * 60_000,
};

function parseOwner(text: string): LockOwner | null {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string'
      ? (owner as LockOwner)
      : null;
  } catch {
    return null;
  }
}

/**
 * The lock's content when its holder is gone: a process of this host that no longer runs, or a
 * lock nobody touched for `staleMs`. Null while it is held (or was just released). A lock being
 * written (no content yet) counts as held until it is stale.
 */
async function abandonedLock(path: string, staleMs: number): Promise<string | null> {
  let text: string;
  let touchedAt: number;
  try {
    [text, touchedAt] = await Promise.all([readFile(path, 'utf8'), stat(path).then((s) => s.mtimeMs)]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (Date.now() - touchedAt > staleMs) return text;
  const owner = parseOwner(text);
  return owner && owner.host === hostname() && !isAlive(owner.pid) ? text : null;
}

/** Removes the lock at `path` if it still has `content` (a narrow window: see withWorkspaceLock). */
async function removeIfStill(path: string, content: string): Promise<void> {
  const now = await readFile(path, 'utf8').catch(() => null);
  if (now === content) await unlink(path).catch(() => undefined);
}

async function tryCreate(path: string, owner: LockOwner): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(owner));
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Runs `fn` holding the lock of an agent's workspace, across processes: two workers sharing the
 * workspaces directory must not prepare one agent's clone at once (one would delete the other's
 * half-made clone, or fetch into it). A lock whose holder died (this host) or went silent (any
 * host) is taken over; a lock still held after `maxWaitMs` is an error naming its holder.
 * Taking over an abandoned lock re-reads it first, which leaves a window of a few microseconds in
 * which two waiters could both take it: acceptable for a crash's aftermath.
 */
export async function withWorkspaceLock<T>(
  root: string,
  agentId: string,
  fn: () => Promise<T>,
  options: WorkspaceLockOptions = {},
): Promise<T> {
  const { pollMs, heartbeatMs, staleMs, maxWaitMs } = { ...DEFAULTS, ...options };
  const path = workspaceLockPath(root, agentId);
  await mkdir(dirname(path), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), token: randomUUID() };
  const deadline = Date.now() + maxWaitMs;
  while (!(await tryCreate(path, me))) {
    const abandoned = await abandonedLock(path, staleMs);
    if (abandoned !== null) {
      await removeIfStill(path, abandoned);
      continue;
    }
    if (Date.now() > deadline) {
      const owner = parseOwner(await readFile(path, 'utf8').catch(() => ''));
      const holder = owner ? `process ${owner.pid} on ${owner.host}` : 'another process';
      throw new Error(
        `The agent's workspace is still being prepared by ${holder} after ${Math.ceil(maxWaitMs / 1000)} s`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    await removeIfStill(path, JSON.stringify(me));
  }
}
