import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { SessionTracker, TRACKING } from './session-tracker';

describe('SessionTracker', () => {
  let sent: SessionEvent[][];
  let tracker: SessionTracker;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    tracker = new SessionTracker(
      {
        now: () => Date.now(),
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (id) => window.clearTimeout(id),
      },
      (events) => sent.push(events),
    );
  });
  afterEach(() => vi.useRealTimers());

  it('debounces scrolling by 150 ms and records only changes of 5 % or more', () => {
    tracker.scroll(10);
    tracker.scroll(20);
    vi.advanceTimersByTime(TRACKING.scrollDebounceMs - 1);
    tracker.scroll(30);
    vi.advanceTimersByTime(TRACKING.scrollDebounceMs);
    tracker.scroll(33); // < 5 % from 30: ignored
    vi.advanceTimersByTime(TRACKING.scrollDebounceMs);
    tracker.scroll(36); // 6 % from 30: recorded
    vi.advanceTimersByTime(TRACKING.scrollDebounceMs);
    tracker.end();
    expect(sent[0]!.filter((e) => e.type === 'scroll').map((e) => e.data.percent)).toEqual([30, 36]);
  });

  it('sends one batch with an end event when the page is left, and never again', () => {
    tracker.pageView('/');
    tracker.pageView('/docs');
    tracker.end();
    tracker.end();
    tracker.pageView('/blog');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((e) => e.type)).toEqual(['page_view', 'page_view', 'end']);
  });

  it('sends after 10 minutes without activity, counted from the last event', () => {
    tracker.pageView('/');
    vi.advanceTimersByTime(TRACKING.inactivityMs - 1000);
    tracker.scroll(50);
    vi.advanceTimersByTime(TRACKING.inactivityMs - 1000);
    expect(sent).toHaveLength(0);
    vi.advanceTimersByTime(1000 + TRACKING.scrollDebounceMs);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.at(-1)!.type).toBe('end');
  });

  it('only logs a failing send', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = new SessionTracker(
      {
        now: () => 0,
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (id) => window.clearTimeout(id),
      },
      () => {
        throw new Error('offline');
      },
    );
    expect(() => failing.end()).not.toThrow();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
