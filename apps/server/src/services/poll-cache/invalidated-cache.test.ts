import { describe, expect, it } from 'vitest';
import { InvalidatedCache } from './invalidated-cache.js';

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('InvalidatedCache', () => {
  it('keeps a loaded value until a notice names its key', async () => {
    const cache = new InvalidatedCache<number>(10, () => true);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    cache.invalidate('a');
    expect(await cache.get('a', load)).toBe(2);
    cache.clear();
    expect(await cache.get('a', load)).toBe(3);
  });

  it('does not keep a value read while a notice for its key arrived', async () => {
    const cache = new InvalidatedCache<string>(10, () => true);
    const slow = deferred<string>();
    const first = cache.get('a', () => slow.promise);
    // The change commits (and its notice arrives) after the read saw the old row.
    cache.invalidate('a');
    slow.resolve('old');
    expect(await first).toBe('old');
    expect(await cache.get('a', async () => 'new')).toBe('new');
  });

  it('does not keep a value read across a clear', async () => {
    const cache = new InvalidatedCache<string>(10, () => true);
    const slow = deferred<string>();
    const first = cache.get('a', () => slow.promise);
    cache.clear();
    slow.resolve('old');
    await first;
    expect(await cache.get('a', async () => 'new')).toBe('new');
  });

  it('keeps nothing while notices do not flow', async () => {
    let enabled = false;
    const cache = new InvalidatedCache<number>(10, () => enabled);
    let loads = 0;
    await cache.get('a', async () => ++loads);
    await cache.get('a', async () => ++loads);
    expect(loads).toBe(2);
    enabled = true;
    await cache.get('a', async () => ++loads);
    await cache.get('a', async () => ++loads);
    expect(loads).toBe(3);
  });

  it('forgets the oldest entry beyond its size', async () => {
    const cache = new InvalidatedCache<number>(2, () => true);
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    await cache.get('c', async () => 3);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 10)).toBe(10);
    expect(await cache.get('c', async () => 30)).toBe(3);
  });

  it('keeps a value maxAgeMs at most, so a notice that went missing heals', async () => {
    let now = 1_000;
    const cache = new InvalidatedCache<number>(10, () => true, { maxAgeMs: 5_000, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    now += 4_999;
    expect(await cache.get('a', load)).toBe(1);
    now += 1;
    expect(await cache.get('a', load)).toBe(2);
    expect(await cache.get('a', load)).toBe(2);
  });
});
