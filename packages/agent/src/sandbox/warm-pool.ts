interface Entry<T> {
  value: T;
  timer: NodeJS.Timeout;
}

/**
 * Keeps released values (sandboxes of paused agents) for ttlMs so a quick follow-up reuses them,
 * then disposes them; past maxSize values, the one released longest ago goes first. Dispose errors
 * are logged, never thrown: they happen on a timer.
 */
export class WarmPool<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly disposing = new Set<Promise<void>>();
  private readonly ttlMs: number;
  private readonly maxSize: number;
  private readonly disposeValue: (key: string, value: T) => Promise<void> | void;

  constructor(options: {
    ttlMs: number;
    /** How many values are kept at most (unbounded when unset). */
    maxSize?: number;
    dispose: (key: string, value: T) => Promise<void> | void;
  }) {
    this.ttlMs = options.ttlMs;
    this.maxSize = options.maxSize ?? Infinity;
    this.disposeValue = options.dispose;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Removes the value from the pool (cancelling its disposal) and hands it back. */
  take(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    return entry.value;
  }

  /** Keeps the value warm for ttlMs. A different value already pooled under the key is disposed. */
  release(key: string, value: T): void {
    const previous = this.take(key);
    if (previous !== undefined && previous !== value) this.dispose(key, previous);
    const timer = setTimeout(() => {
      if (this.entries.get(key)?.value !== value) return;
      this.entries.delete(key);
      this.dispose(key, value);
    }, this.ttlMs);
    // A warm sandbox alone must not keep the server process alive.
    timer.unref();
    this.entries.set(key, { value, timer });
    // A Map iterates in insertion order, and a release re-inserts its key: the first is the oldest.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxSize) break;
      const evicted = this.take(oldest);
      if (evicted !== undefined) this.dispose(oldest, evicted);
    }
  }

  /** Disposes everything pooled now and waits for disposals already running (shutdown). */
  async disposeAll(): Promise<void> {
    for (const key of [...this.entries.keys()]) {
      const value = this.take(key);
      if (value !== undefined) this.dispose(key, value);
    }
    await Promise.all([...this.disposing]);
  }

  private dispose(key: string, value: T): void {
    const run = Promise.resolve()
      .then(() => this.disposeValue(key, value))
      .catch((error: unknown) => console.error(`warm pool: disposing ${key} failed`, error))
      .finally(() => this.disposing.delete(run));
    this.disposing.add(run);
  }
}
