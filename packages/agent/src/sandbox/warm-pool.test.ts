import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WarmPool } from './warm-pool.js';

describe('WarmPool', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('disposes a released value after the ttl', async () => {
    const dispose = vi.fn();
    const pool = new WarmPool<string>({ ttlMs: 5000, dispose });
    pool.release('agent-1', 'sandbox-1');
    await vi.advanceTimersByTimeAsync(4999);
    expect(dispose).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(dispose).toHaveBeenCalledWith('agent-1', 'sandbox-1');
    expect(pool.take('agent-1')).toBeUndefined();
  });

  it('take() hands the value back and cancels its disposal', async () => {
    const dispose = vi.fn();
    const pool = new WarmPool<string>({ ttlMs: 1000, dispose });
    pool.release('agent-1', 'sandbox-1');
    expect(pool.take('agent-1')).toBe('sandbox-1');
    expect(pool.take('agent-1')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(5000);
    expect(dispose).not.toHaveBeenCalled();
  });

  it('a second release restarts the ttl and disposes a replaced value', async () => {
    const dispose = vi.fn();
    const pool = new WarmPool<string>({ ttlMs: 1000, dispose });
    pool.release('agent-1', 'old');
    await vi.advanceTimersByTimeAsync(800);
    pool.release('agent-1', 'new');
    await vi.advanceTimersByTimeAsync(0);
    expect(dispose).toHaveBeenCalledWith('agent-1', 'old');
    await vi.advanceTimersByTimeAsync(800);
    expect(pool.take('agent-1')).toBe('new');
    expect(dispose).toHaveBeenCalledTimes(1);
  });

  it('disposeAll() disposes everything and waits for async disposals', async () => {
    const disposed: string[] = [];
    const pool = new WarmPool<string>({
      ttlMs: 60_000,
      dispose: async (key) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        disposed.push(key);
      },
    });
    pool.release('a', 'x');
    pool.release('b', 'y');
    const done = pool.disposeAll();
    await vi.advanceTimersByTimeAsync(10);
    await done;
    expect(disposed.sort()).toEqual(['a', 'b']);
    expect(pool.size).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(disposed).toHaveLength(2);
  });

  it('past maxSize, disposes the value released longest ago', async () => {
    const dispose = vi.fn();
    const pool = new WarmPool<string>({ ttlMs: 60_000, maxSize: 2, dispose });
    pool.release('a', 'x');
    pool.release('b', 'y');
    // Released again: 'a' is now the newest, and a third value pushes out 'b'.
    pool.release('a', 'x');
    pool.release('c', 'z');
    await vi.advanceTimersByTimeAsync(0);
    expect(dispose.mock.calls).toEqual([['b', 'y']]);
    expect(pool.size).toBe(2);
    expect(pool.take('b')).toBeUndefined();
    expect([pool.take('a'), pool.take('c')]).toEqual(['x', 'z']);
    // The evicted value's ttl timer does not dispose it a second time.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(dispose).toHaveBeenCalledTimes(1);
  });

  it('keeps nothing with maxSize 0', async () => {
    const dispose = vi.fn();
    const pool = new WarmPool<string>({ ttlMs: 60_000, maxSize: 0, dispose });
    pool.release('a', 'x');
    await vi.advanceTimersByTimeAsync(0);
    expect(dispose).toHaveBeenCalledWith('a', 'x');
    expect(pool.size).toBe(0);
  });

  it('logs dispose failures instead of throwing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const pool = new WarmPool<string>({
      ttlMs: 10,
      dispose: () => {
        throw new Error('boom');
      },
    });
    pool.release('a', 'x');
    await vi.advanceTimersByTimeAsync(10);
    await pool.disposeAll();
    expect(error).toHaveBeenCalledWith('warm pool: disposing a failed', expect.any(Error));
  });
});
