import type { SessionEvent } from '@tandem/shared';

export interface TrackerClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
}

export const TRACKING = {
  /** The batch goes out after this long without activity, if the page is not left first. */
  inactivityMs: 10 * 60 * 1000,
  scrollDebounceMs: 150,
  /** Smaller scroll changes are not worth an event. */
  scrollStepPercent: 5,
  /** Scrollable elements are looked for once the page has settled. */
  scanDelayMs: 500,
} as const;

/**
 * Collects page_view, scroll and end events and sends them as one batch, once: when the page is
 * left (`end`) or after 10 minutes of inactivity (platform §4). Pure of browser APIs so the
 * timing rules are unit-tested with fake timers.
 */
export class SessionTracker {
  private readonly events: SessionEvent[] = [];
  private scrollTimer: number | undefined;
  private idleTimer: number | undefined;
  private lastScroll: number | undefined;
  private sent = false;

  constructor(
    private readonly clock: TrackerClock,
    private readonly send: (events: SessionEvent[]) => void,
  ) {
    this.touch();
  }

  get done(): boolean {
    return this.sent;
  }

  pageView(path: string): void {
    this.record({ type: 'page_view', timestamp: this.clock.now(), data: { path } });
  }

  /** Scroll position in percent of the scrollable height; debounced, and only 5 %+ changes count. */
  scroll(percent: number, target = 'window'): void {
    if (this.sent) return;
    this.touch();
    if (this.scrollTimer !== undefined) this.clock.clearTimeout(this.scrollTimer);
    this.scrollTimer = this.clock.setTimeout(() => {
      this.scrollTimer = undefined;
      const rounded = Math.round(percent);
      if (this.lastScroll !== undefined && Math.abs(rounded - this.lastScroll) < TRACKING.scrollStepPercent)
        return;
      this.lastScroll = rounded;
      this.record({ type: 'scroll', timestamp: this.clock.now(), data: { percent: rounded, target } });
    }, TRACKING.scrollDebounceMs);
  }

  /** The page is being left: add the end event and send everything, once. */
  end(): void {
    if (this.sent) return;
    this.events.push({ type: 'end', timestamp: this.clock.now(), data: {} });
    this.flush();
  }

  private record(event: SessionEvent): void {
    if (this.sent) return;
    this.events.push(event);
    this.touch();
  }

  private touch(): void {
    if (this.sent) return;
    if (this.idleTimer !== undefined) this.clock.clearTimeout(this.idleTimer);
    this.idleTimer = this.clock.setTimeout(() => this.end(), TRACKING.inactivityMs);
  }

  private flush(): void {
    this.sent = true;
    if (this.idleTimer !== undefined) this.clock.clearTimeout(this.idleTimer);
    if (this.scrollTimer !== undefined) this.clock.clearTimeout(this.scrollTimer);
    try {
      this.send([...this.events]);
    } catch (error) {
      // Tracking failures are only logged (platform §4).
      console.warn('Sending tracking events failed', error);
    }
  }
}
