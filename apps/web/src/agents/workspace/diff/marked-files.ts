/** A file the user marked Viewed (workspace spec: filepath, contentHash, markedAt). */
export interface MarkedFile {
  filepath: string;
  contentHash: string;
  /** Milliseconds since the epoch. */
  markedAt: number;
}

export interface MarkedFilesStore {
  list(): Promise<MarkedFile[]>;
  mark(file: MarkedFile): Promise<void>;
  unmark(filepath: string): Promise<void>;
  /** Whether `filepath` is marked for exactly this content; a mark for other content is dropped. */
  isMarked(filepath: string, hash: string): Promise<boolean>;
}

/**
 * Marks are kept per agent and branch subscription rather than per repository and branch: the
 * branch is the agent's own (no one else reviews the same branch through another agent), a
 * window without a subscription (live changes only) has no repository or branch to key by, and
 * the subscription keeps an agent that works in two repositories from mixing up equal paths.
 */
export const markScope = (agentId: string, sourceId: string | null) => `${agentId}/${sourceId ?? 'live'}`;

const DB_NAME = 'tandem-diff';
const STORE = 'marked-files';
const SCOPE_INDEX = 'scope';

interface Row extends MarkedFile {
  scope: string;
}

/**
 * What lasts when IndexedDB does not (private windows, blocked storage, test environments): marks
 * survive remounting the window for the rest of the page's life.
 */
const memory = new Map<string, Map<string, MarkedFile>>();
const memoryFor = (scope: string) => {
  let files = memory.get(scope);
  if (!files) memory.set(scope, (files = new Map()));
  return files;
};

const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });

function openDb(factory: IDBFactory): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = factory.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: ['scope', 'filepath'] });
      store.createIndex(SCOPE_INDEX, 'scope');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
    req.onblocked = () => reject(new Error('IndexedDB blocked'));
  });
}

/**
 * The Viewed marks of one scope (see `markScope`). Every IndexedDB failure falls back to memory,
 * which also mirrors every write, so a broken database never breaks the window.
 */
export function markedFilesStore(
  scope: string,
  factory: IDBFactory | undefined = globalThis.indexedDB,
): MarkedFilesStore {
  const files = memoryFor(scope);
  let db: Promise<IDBDatabase | null> | null = null;
  const database = () => {
    if (!db) {
      let opened: Promise<IDBDatabase>;
      try {
        opened = factory ? openDb(factory) : Promise.reject(new Error('no IndexedDB'));
      } catch (error) {
        opened = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      db = opened.catch(() => null);
    }
    return db;
  };
  const withStore = async <T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>) => {
    const opened = await database();
    if (!opened) return undefined;
    try {
      return await request(run(opened.transaction(STORE, mode).objectStore(STORE)));
    } catch {
      return undefined;
    }
  };

  const store: MarkedFilesStore = {
    async list() {
      const rows = await withStore(
        'readonly',
        (s) => s.index(SCOPE_INDEX).getAll(scope) as IDBRequest<Row[]>,
      );
      for (const { filepath, contentHash, markedAt } of rows ?? []) {
        if (!files.has(filepath)) files.set(filepath, { filepath, contentHash, markedAt });
      }
      return [...files.values()];
    },
    async mark(file) {
      files.set(file.filepath, file);
      await withStore('readwrite', (s) => s.put({ ...file, scope } satisfies Row));
    },
    async unmark(filepath) {
      files.delete(filepath);
      await withStore('readwrite', (s) => s.delete([scope, filepath]));
    },
    async isMarked(filepath, hash) {
      const marked = (await store.list()).find((f) => f.filepath === filepath);
      if (!marked) return false;
      if (marked.contentHash === hash) return true;
      await store.unmark(filepath);
      return false;
    },
  };
  return store;
}

/** Forgets the in-memory marks (tests). */
export function clearMemoryMarks(): void {
  memory.clear();
}
