import type { EventLoopUtilization } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectAllAvailableGarbage, releaseMemoryWhenIdle } from './idle-memory-release.js';

const MB = 1048576;

/** Grows the heap by `count` small objects that are garbage once it returns. */
function makeGarbage(count: number): number {
  return Array.from({ length: count }, (_, i) => ({ i, s: `item ${i}` })).length;
}

/** A process whose event loop load and resident set the test sets, and whose collections it counts. */
function fakeProcess() {
  const state = { busy: 0, rss: 300 * MB, collections: 0, freedTo: undefined as number | undefined };
  const utilization = (since?: EventLoopUtilization): EventLoopUtilization => ({
    idle: 0,
    active: 0,
    utilization: since ? state.busy : 0,
  });
  const releases: { rssBeforeMb: number; rssAfterMb: number }[] = [];
  const watcher = releaseMemoryWhenIdle({
    windowMs: 1000,
    quietWindows: 2,
    busyAbove: 0.05,
    growthMb: 16,
    utilization,
    rss: () => state.rss,
    collect: () => {
      state.collections += 1;
      if (state.freedTo !== undefined) state.rss = state.freedTo;
    },
    onRelease: (release) => releases.push(release),
  });
  return { state, releases, watcher };
}

describe('releaseMemoryWhenIdle', () => {
  afterEach(() => vi.useRealTimers());

  it('gives memory back once the event loop has been quiet for the windows asked', () => {
    vi.useFakeTimers();
    const { state, releases, watcher } = fakeProcess();
    state.freedTo = 250 * MB;
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(1);
    expect(releases).toMatchObject([{ rssBeforeMb: 300, rssAfterMb: 250 }]);
    watcher.stop();
  });

  it('waits while the event loop is busy, and counts quiet windows again after a busy one', () => {
    vi.useFakeTimers();
    const { state, watcher } = fakeProcess();
    state.busy = 0.5;
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(0);
    state.busy = 0.01;
    vi.advanceTimersByTime(1000);
    state.busy = 0.2;
    vi.advanceTimersByTime(1000);
    state.busy = 0;
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(1);
    watcher.stop();
  });

  it('collects again only after the resident set grew by growthMb over its lowest since', () => {
    vi.useFakeTimers();
    const { state, watcher } = fakeProcess();
    state.freedTo = 250 * MB;
    vi.advanceTimersByTime(2000);
    expect(state.collections).toBe(1);
    // Memory all in use: a quiet process whose collection freed nothing is not collected again.
    state.freedTo = undefined;
    vi.advanceTimersByTime(60_000);
    expect(state.collections).toBe(1);
    // Given back without us (V8's own reducer ran): growth counts from there.
    state.rss = 230 * MB;
    vi.advanceTimersByTime(1000);
    state.rss = 240 * MB;
    vi.advanceTimersByTime(60_000);
    expect(state.collections).toBe(1);
    state.rss = 247 * MB;
    vi.advanceTimersByTime(2000);
    expect(state.collections).toBe(2);
    watcher.stop();
  });

  it('stops looking when stopped', () => {
    vi.useFakeTimers();
    const { state, watcher } = fakeProcess();
    watcher.stop();
    vi.advanceTimersByTime(60_000);
    expect(state.collections).toBe(0);
  });
});

describe('releaseMemoryWhenIdle in this process', () => {
  it('reads the real event loop and memory, and gives back what garbage grew once quiet', async () => {
    expect(makeGarbage(1_000_000)).toBe(1_000_000);
    const heapBefore = process.memoryUsage().heapTotal;
    const released = new Promise<{ rssBeforeMb: number; rssAfterMb: number }>((resolve) => {
      const watcher = releaseMemoryWhenIdle({
        windowMs: 50,
        growthMb: 1,
        onRelease: (release) => {
          watcher.stop();
          resolve(release);
        },
      });
    });
    const release = await released;
    expect(release.rssAfterMb).toBeLessThan(release.rssBeforeMb);
    expect(process.memoryUsage().heapTotal).toBeLessThan(heapBefore - 30 * MB);
  });
});

describe('collectAllAvailableGarbage', () => {
  it('gives back the pages of a heap that grew for garbage, without leaving gc() exposed', () => {
    expect(makeGarbage(1_500_000)).toBe(1_500_000);
    const grown = process.memoryUsage().heapTotal;
    collectAllAvailableGarbage();
    expect(process.memoryUsage().heapTotal).toBeLessThan(grown - 50 * MB);
    // Contexts made afterwards do not get the function.
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
