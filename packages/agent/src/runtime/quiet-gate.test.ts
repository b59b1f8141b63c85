import type { EventLoopUtilization } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuietGate } from './quiet-gate.js';

/** A fake event loop: each 50 ms window is as busy as `busy` says when the gate looks at it. */
function fakeLoop() {
  const loop = { busy: 0, active: 0, idle: 0 };
  const utilization = (since?: EventLoopUtilization): EventLoopUtilization => {
    if (!since) return { active: loop.active, idle: loop.idle, utilization: 0 };
    const active = loop.active - since.active;
    const idle = loop.idle - since.idle;
    return { active, idle, utilization: active / (active + idle || 1) };
  };
  /** Moves time on by one window with the loop `busy` (0 to 1) of it. */
  const window = async (busy: number) => {
    loop.active += 50 * busy;
    loop.idle += 50 * (1 - busy);
    await vi.advanceTimersByTimeAsync(50);
  };
  return { utilization, window };
}

describe('QuietGate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const gateWith = (utilization: ReturnType<typeof fakeLoop>['utilization']) =>
    new QuietGate({ busyAbove: 0.5, windowMs: 50, maxWaitMs: 1000, utilization });

  it('lets one waiter through per quiet window, oldest first, and none while busy', async () => {
    const loop = fakeLoop();
    const gate = gateWith(loop.utilization);
    const passed: number[] = [];
    for (const n of [1, 2, 3]) void gate.wait().then(() => passed.push(n));
    await loop.window(0.9);
    await loop.window(0.6);
    expect(passed).toEqual([]);
    await loop.window(0.2);
    expect(passed).toEqual([1]);
    await loop.window(0.8);
    expect(passed).toEqual([1]);
    await loop.window(0.1);
    await loop.window(0.1);
    expect(passed).toEqual([1, 2, 3]);
    expect(gate.waiting).toBe(0);
  });

  it('lets every waiter through in the first quiet window when perWindow allows it', async () => {
    const loop = fakeLoop();
    const gate = new QuietGate({
      busyAbove: 0.5,
      windowMs: 50,
      maxWaitMs: 1000,
      perWindow: Infinity,
      utilization: loop.utilization,
    });
    const passed: number[] = [];
    for (const n of [1, 2, 3]) void gate.wait().then(() => passed.push(n));
    await loop.window(0.9);
    expect(passed).toEqual([]);
    await loop.window(0.3);
    expect(passed).toEqual([1, 2, 3]);
    expect(gate.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets a hurried waiter through at once, however busy the loop', async () => {
    const loop = fakeLoop();
    const gate = gateWith(loop.utilization);
    let hurry!: () => void;
    const passed: string[] = [];
    void gate.wait().then(() => passed.push('patient'));
    void gate.wait(new Promise<void>((resolve) => (hurry = resolve))).then(() => passed.push('hurried'));
    await loop.window(1);
    hurry();
    await vi.advanceTimersByTimeAsync(0);
    expect(passed).toEqual(['hurried']);
    expect(gate.waiting).toBe(1);
  });

  it('lets everyone through after the longest wait on a loop that is never quiet', async () => {
    const loop = fakeLoop();
    const gate = gateWith(loop.utilization);
    let passed = 0;
    void gate.wait().then(() => (passed += 1));
    void gate.wait().then(() => (passed += 1));
    for (let i = 0; i < 19; i++) await loop.window(1);
    expect(passed).toBe(0);
    await loop.window(1);
    expect(passed).toBe(2);
  });

  it('watches the loop only while someone waits', async () => {
    const loop = fakeLoop();
    const gate = gateWith(loop.utilization);
    expect(vi.getTimerCount()).toBe(0);
    const waited = gate.wait();
    expect(vi.getTimerCount()).toBe(2);
    await loop.window(0);
    await waited;
    expect(vi.getTimerCount()).toBe(0);
  });
});
