import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * How much lower than the server (nice(2) steps) the processes of background work run: work that
 * nobody waits for yet, such as the sandbox a fresh agent's clone prepares while its first model
 * request is out. On a busy machine the scheduler then gives the CPU to the server's event loop
 * and database thread first, which every agent and every open tab are waiting on (docs/decisions.md
 * "Background work at a lower priority"). Without contention a lower priority costs nothing. The
 * kernel lets a process lower its priority but not raise it back, so a preparation that a tool
 * comes to wait for keeps it; the processes an agent's tools start run at the server's priority.
 */
export const BACKGROUND_NICENESS = 10;

const background = new AsyncLocalStorage<true>();

/** Runs `work` so that every process launch() starts from it runs at background priority. */
export function inBackground<T>(work: () => T): T {
  return background.run(true, work);
}

/** Whether a process started now is background work's (inside inBackground). */
export function inBackgroundWork(): boolean {
  return background.getStore() === true;
}
