import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { emptyState, type HostState } from './types.js';

/**
 * The code host's state in one JSON file. Reads are from memory; each change is written through
 * at once (temp file + rename, so a crash never leaves half a file).
 */
export class Store {
  readonly state: HostState;
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'store.json');
    mkdirSync(dirname(this.path), { recursive: true });
    this.state = existsSync(this.path)
      ? { ...emptyState(), ...(JSON.parse(readFileSync(this.path, 'utf8')) as Partial<HostState>) }
      : emptyState();
  }

  /** Applies a change and persists it before returning. */
  update<T>(change: (state: HostState) => T): T {
    const result = change(this.state);
    this.save();
    return result;
  }

  nextId(): number {
    return this.update((s) => s.nextId++);
  }

  private save(): void {
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state));
    renameSync(temp, this.path);
  }
}
