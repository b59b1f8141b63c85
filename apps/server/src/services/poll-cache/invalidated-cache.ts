/**
 * A bounded map filled on demand and emptied by change notices. A value read from the database
 * while a notice for its key arrives is returned but not kept: the read may predate the change.
 * While `enabled()` is false (notices not flowing) nothing is kept and every get loads. A value is
 * also kept `maxAgeMs` at most, so one whose notice went missing cannot outlive that.
 */
export class InvalidatedCache<V> {
  private readonly values = new Map<string, { value: V; keptAt: number }>();
  /** Loads under way per key; `stale` once a notice for the key arrived during them. */
  private readonly loads = new Map<string, { count: number; stale: boolean }>();

  constructor(
    private readonly maxEntries: number,
    private readonly enabled: () => boolean,
    private readonly options: { maxAgeMs?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  get size(): number {
    return this.values.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const kept = this.values.get(key);
    if (kept) {
      const { maxAgeMs } = this.options;
      if (maxAgeMs === undefined || this.now() - kept.keptAt < maxAgeMs) return kept.value;
      this.values.delete(key);
    }
    if (!this.enabled()) return load();
    let pending = this.loads.get(key);
    if (!pending) {
      pending = { count: 0, stale: false };
      this.loads.set(key, pending);
    }
    pending.count++;
    try {
      const value = await load();
      if (!pending.stale && this.enabled()) this.keep(key, value);
      return value;
    } finally {
      if (--pending.count === 0 && this.loads.get(key) === pending) this.loads.delete(key);
    }
  }

  invalidate(key: string): void {
    this.values.delete(key);
    const pending = this.loads.get(key);
    if (pending) pending.stale = true;
  }

  clear(): void {
    this.values.clear();
    for (const pending of this.loads.values()) pending.stale = true;
  }

  private keep(key: string, value: V): void {
    // Oldest first: a Map iterates in insertion order, so the first key is the least recently kept.
    if (this.values.size >= this.maxEntries) this.values.delete(this.values.keys().next().value!);
    this.values.set(key, { value, keptAt: this.now() });
  }
}
