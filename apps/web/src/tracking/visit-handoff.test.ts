import { describe, expect, it } from 'vitest';
import { handOffVisit, takeVisitHandoff, VISIT_HANDOFF_MAX_AGE_MS } from './visit-handoff';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

describe('visit hand-over from the landing page', () => {
  it('is taken once by the next page load', () => {
    const store = memoryStorage();
    handOffVisit(store, 1_000);
    expect(takeVisitHandoff(store, 2_000)).toBe(true);
    expect(takeVisitHandoff(store, 2_000)).toBe(false);
  });

  it('is nothing without a hand-over', () => {
    expect(takeVisitHandoff(memoryStorage(), 1_000)).toBe(false);
  });

  it('ignores a stale hand-over and forgets it', () => {
    const store = memoryStorage();
    handOffVisit(store, 1_000);
    expect(takeVisitHandoff(store, 1_000 + VISIT_HANDOFF_MAX_AGE_MS + 1)).toBe(false);
    expect(store.getItem('visitHandoff')).toBeNull();
  });
});
