import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleMemoryReleaseOptions {
  /** How long each look at the process lasts (ms). */
  windowMs?: number;
  /** How many looks in a row the event loop must have been quiet before memory is given back. */
  quietWindows?: number;
  /** The share of a window the event loop may be busy for it to count as quiet. */
  busyAbove?: number;
  /** How far (MB) resident memory must have grown since the last release for another one. */
  growthMb?: number;
  /** Told of each release (for the log). */
  onRelease?: (release: { rssBeforeMb: number; rssAfterMb: number; ms: number }) => void;
  /** Replaced in tests: the event loop's utilisation, the resident set in bytes, the collection. */
  utilization?: (since?: EventLoopUtilization) => EventLoopUtilization;
  rss?: () => number;
  collect?: () => void;
}

export const IDLE_MEMORY_DEFAULTS = {
  windowMs: 10_000,
  quietWindows: 2,
  busyAbove: 0.05,
  growthMb: 16,
} as const;

type Gc = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let exposed: Gc | undefined;

/**
 * V8's own `gc()`, as `--expose-gc` would give it, without starting Node with that flag: the flag
 * set at run time applies to contexts created after it, so a new context carries the function (as
 * Jest gets it for --logHeapUsage). The flag is put back at once; the function stays usable, so it
 * is taken once rather than with a new context before every collection.
 */
function exposedGc(): Gc {
  const existing = (globalThis as { gc?: Gc }).gc;
  if (existing) return existing;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  try {
    exposed = runInNewContext('gc') as Gc;
    return exposed;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * A full garbage collection that gives memory back: V8's "last resort" flavour collects until
 * nothing more is freed and shrinks the young generation and the heap's committed pages, as its
 * memory reducer does (the regular flavour keeps the pages for the next burst).
 */
export function collectAllAvailableGarbage(): void {
  exposedGc()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * Gives the memory a burst of work grew back to the system once the process has fallen quiet.
 * V8's memory reducer is meant to do this, but it is armed only by a full collection: a burst that
 * V8 served with young-generation collections alone (a hundred agents at once, bench/README.md)
 * left the process idling at its high-water mark for as long as nothing else happened, 40-65 MB
 * above what the same process idled at after another such burst. Here, once the event loop has been
 * mostly idle for `quietWindows` looks in a row and the resident set has grown by `growthMb` since
 * the last release, one memory-reducing collection runs (some 100-130 ms of a quiet event loop on a
 * server that ran a hundred agents). It runs again only after the resident set grows that much
 * more, so a process whose memory is all in use is not collected over and over.
 *
 * Costs an idle process one unref'd timer; `stop()` ends it.
 */
export function releaseMemoryWhenIdle(options: IdleMemoryReleaseOptions = {}): { stop(): void } {
  const { windowMs, quietWindows, busyAbove, growthMb } = { ...IDLE_MEMORY_DEFAULTS, ...options };
  const utilization = options.utilization ?? ((since) => performance.eventLoopUtilization(since));
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const collect = options.collect ?? collectAllAvailableGarbage;
  const growth = growthMb * 1048576;
  const mb = (bytes: number) => Math.round(bytes / 1048576);
  // The resident set right after the last release, or the lowest since: what growth counts from.
  // None yet: start-up leaves the heap at a high-water mark too, which the first quiet spell gives back.
  let floor: number | undefined;
  let quiet = 0;
  let last = utilization();
  const timer = setInterval(() => {
    const now = utilization();
    quiet = utilization(last).utilization > busyAbove ? 0 : quiet + 1;
    last = now;
    const current = rss();
    if (floor !== undefined) floor = Math.min(floor, current);
    if (quiet < quietWindows || (floor !== undefined && current - floor < growth)) return;
    const started = performance.now();
    collect();
    const ms = performance.now() - started;
    floor = rss();
    quiet = 0;
    // The collection itself is not work someone waited on: the next look starts after it.
    last = utilization();
    options.onRelease?.({ rssBeforeMb: mb(current), rssAfterMb: mb(floor), ms: Math.round(ms) });
  }, windowMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
