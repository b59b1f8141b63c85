import { afterEach, describe, expect, it } from 'vitest';
import { clearMemoryMarks, markedFilesStore } from './marked-files';

const mark = (filepath: string, contentHash: string) => ({ filepath, contentHash, markedAt: 1 });

/** An IndexedDB whose open fails the way a blocked or broken database does. */
const brokenFactory = (how: 'throw' | 'error'): IDBFactory =>
  ({
    open() {
      if (how === 'throw') throw new DOMException('denied', 'SecurityError');
      const req = {} as IDBOpenDBRequest;
      setTimeout(() => req.onerror?.(new Event('error')));
      return req;
    },
  }) as unknown as IDBFactory;

describe('marked files store', () => {
  afterEach(() => clearMemoryMarks());

  it('marks, answers for the same hash, and un-marks when the hash differs (memory fallback)', async () => {
    const store = markedFilesStore('agent-1', undefined);
    await store.mark(mark('src/a.ts', '2cf24dba5fb0a30e'));
    expect(await store.isMarked('src/a.ts', '2cf24dba5fb0a30e')).toBe(true);
    expect(await store.isMarked('src/a.ts', '0000000000000000')).toBe(false);
    // The stale mark is gone, so the old hash no longer counts either.
    expect(await store.isMarked('src/a.ts', '2cf24dba5fb0a30e')).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('keeps marks per scope and across store instances of the page', async () => {
    await markedFilesStore('agent-1', undefined).mark(mark('a', 'h1'));
    expect(await markedFilesStore('agent-1', undefined).list()).toEqual([mark('a', 'h1')]);
    expect(await markedFilesStore('agent-2', undefined).list()).toEqual([]);
  });

  it.each(['throw', 'error'] as const)(
    'falls back to memory when IndexedDB fails to open (%s)',
    async (how) => {
      const store = markedFilesStore('agent-1', brokenFactory(how));
      await store.mark(mark('a', 'h1'));
      expect(await store.isMarked('a', 'h1')).toBe(true);
      await store.unmark('a');
      expect(await store.isMarked('a', 'h1')).toBe(false);
    },
  );

  it('uses the environment IndexedDB, or memory without one', async () => {
    const store = markedFilesStore('agent-3');
    await store.mark(mark('b', 'h2'));
    expect(await store.isMarked('b', 'h2')).toBe(true);
  });
});
