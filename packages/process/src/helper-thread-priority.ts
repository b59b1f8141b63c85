import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Node's V8 platform threads: the pool V8 compiles optimised code and runs its concurrent garbage
 * collection on, shared by every isolate of the process (the event loop and worker threads such as
 * the embedded database's). Node starts its delayed-task scheduler first and the pool's threads
 * right after it, before any script runs (src/node_platform.cc). Node 24 names the pool's threads
 * `V8Worker`; Node 22 names only the scheduler (`DelayedTaskScheduler`, cut to 15 characters by
 * the kernel) and leaves the pool with the process's name.
 */
const POOL_NAME = 'V8Worker';
const SCHEDULER_NAME = 'DelayedTaskSche';
/** Node's default `--v8-pool-size`. */
const DEFAULT_POOL_SIZE = 4;
/** How many nice steps below the event loop the pool runs unless TANDEM_V8_HELPER_NICE says. */
export const DEFAULT_HELPER_NICE = 10;

export interface HelperThreads {
  /** The pool's thread ids, oldest first; empty where they cannot be told apart. */
  threads: number[];
  /** Why nothing was found, or why not every thread found could be lowered. */
  reason?: string;
}

/** The `--v8-pool-size` the process started with (flags and NODE_OPTIONS), else Node's default. */
export function v8PoolSize(execArgv: readonly string[], nodeOptions = ''): number | undefined {
  const args = [...nodeOptions.split(/\s+/), ...execArgv];
  let size = DEFAULT_POOL_SIZE;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = arg.startsWith('--v8-pool-size=')
      ? arg.slice('--v8-pool-size='.length)
      : arg === '--v8-pool-size'
        ? args[i + 1]
        : undefined;
    if (value === undefined) continue;
    // 0 lets Node size the pool itself: its threads cannot be counted from here.
    size = /^\d+$/.test(value) ? Number(value) : NaN;
  }
  return Number.isInteger(size) && size > 0 ? size : undefined;
}

/**
 * Finds this process's V8 platform threads under `taskDir` (`/proc/self/task`): those named for the
 * pool, else the `poolSize` threads created right after the delayed-task scheduler. Thread ids of
 * one process grow with creation, and the pool is made before any script can start a thread.
 */
export function findHelperThreads(poolSize: number | undefined, taskDir = '/proc/self/task'): HelperThreads {
  let tids: number[];
  try {
    tids = readdirSync(taskDir)
      .map(Number)
      .filter(Number.isInteger)
      .sort((a, b) => a - b);
  } catch {
    return { threads: [], reason: `${taskDir} cannot be read` };
  }
  const names = new Map<number, string | undefined>();
  for (const tid of tids) {
    try {
      names.set(tid, readFileSync(`${taskDir}/${tid}/comm`, 'utf8').trim());
    } catch {
      // The thread ended meanwhile.
      names.set(tid, undefined);
    }
  }
  const named = tids.filter((tid) => names.get(tid) === POOL_NAME);
  if (named.length) return { threads: named };
  if (poolSize === undefined) return { threads: [], reason: 'the V8 pool size is not known' };
  const scheduler = tids.find((tid) => names.get(tid) === SCHEDULER_NAME);
  if (scheduler === undefined) return { threads: [], reason: 'no V8 delayed-task scheduler thread' };
  const threads = tids.filter((tid) => tid > scheduler).slice(0, poolSize);
  if (threads.length < poolSize) return { threads: [], reason: 'fewer V8 pool threads than expected' };
  // A thread someone named is not one of the pool's, which Node 22 leaves with the process's name.
  const processName = names.get(tids[0]!);
  if (threads.some((tid) => names.get(tid) !== processName))
    return { threads: [], reason: 'the threads after the scheduler are not the V8 pool' };
  return { threads };
}

/**
 * Runs V8's compiler and concurrent garbage collection `steps` nice steps below the event loop
 * and the database's thread (docs/decisions.md "V8's helper threads at a lower priority"). Where the
 * cores are busy, a burst of requests on a fresh process then waits less for the optimising
 * compiler that it set off itself; where they are idle, a nice value changes nothing. Linux only
 * (a thread id is a valid target of setpriority() there); elsewhere, and where the threads cannot
 * be told apart, it changes nothing and says why.
 */
export function lowerHelperThreadPriority(steps: number): HelperThreads {
  if (process.platform !== 'linux') return { threads: [], reason: 'not Linux' };
  if (steps === 0) return { threads: [], reason: 'turned off' };
  const found = findHelperThreads(v8PoolSize(process.execArgv, process.env.NODE_OPTIONS));
  const lowered: number[] = [];
  for (const tid of found.threads) {
    try {
      // Relative to where the thread is: a process started under `nice` stays below its own loop.
      setPriority(tid, Math.min(19, getPriority(tid) + steps));
      lowered.push(tid);
    } catch (error) {
      return { threads: lowered, reason: `setpriority failed: ${(error as Error).message}` };
    }
  }
  return found;
}
