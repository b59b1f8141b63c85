import { performance, type EventLoopUtilization } from 'node:perf_hooks';

export interface QuietGateOptions {
  /** The share of a window the event loop may be busy for the process to count as quiet. */
  busyAbove: number;
  /** How long each look at the event loop lasts (ms). */
  windowMs: number;
  /** The longest anyone waits: speculative work still gets done on a server that is never quiet. */
  maxWaitMs: number;
  /**
   * How many waiters pass per quiet window (default 1: what a waiter starts is load of its own,
   * which the next window should see). Infinity lets everyone waiting through at once, for light
   * work that only has to stay out of the way of a burst.
   */
  perWindow?: number;
  /** The event loop's utilisation so far (performance.eventLoopUtilization; replaced in tests). */
  utilization?: (since?: EventLoopUtilization) => EventLoopUtilization;
}

interface Waiter {
  release: () => void;
}

/**
 * Holds speculative work back while the server is busy with work someone waits on. A sandbox
 * prepared in the background (run-sandbox.ts) starts about seven processes, and each start blocks
 * the event loop for a fork() of the whole server (bench/README.md): a hundred agents created at
 * once finished about a second sooner with every clone held until all runs had ended, and about
 * 0.7 s sooner with this gate (measured in bench/steps.ts, docs/decisions.md). One waiter passes
 * per window of the event loop that was mostly idle, oldest first; any passes at once when
 * hurried (a tool needs the sandbox now), and after `maxWaitMs`; or every waiter per quiet window
 * (`perWindow`).
 *
 * The event loop is only watched while someone waits: an idle server sets no timer.
 */
export class QuietGate {
  private readonly waiters = new Set<Waiter>();
  private timer: NodeJS.Timeout | undefined;
  private last: EventLoopUtilization | undefined;
  private readonly utilization: (since?: EventLoopUtilization) => EventLoopUtilization;

  constructor(private readonly options: QuietGateOptions) {
    this.utilization = options.utilization ?? ((since) => performance.eventLoopUtilization(since));
  }

  /** Resolves when the server is quiet, `hurry` settles, or `maxWaitMs` passed, whichever is first. */
  wait(hurry?: Promise<unknown>): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiter: Waiter = {
        release: () => {
          if (!this.waiters.delete(waiter)) return;
          clearTimeout(deadline);
          if (!this.waiters.size) this.stopWatching();
          resolve();
        },
      };
      const deadline = setTimeout(waiter.release, this.options.maxWaitMs);
      this.waiters.add(waiter);
      hurry?.then(waiter.release, waiter.release);
      this.startWatching();
    });
  }

  /** How many are waiting (for tests and logs). */
  get waiting(): number {
    return this.waiters.size;
  }

  private startWatching(): void {
    if (this.timer) return;
    this.last = this.utilization();
    this.timer = setInterval(() => this.look(), this.options.windowMs);
    // The waiters' own deadlines keep the process alive where that matters; this timer need not.
    this.timer.unref();
  }

  private stopWatching(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private look(): void {
    const now = this.utilization();
    const window = this.utilization(this.last);
    this.last = now;
    if (window.utilization > this.options.busyAbove) return;
    // Oldest first; by default one at a time, so the next window sees what it started.
    let passes = this.options.perWindow ?? 1;
    for (const waiter of [...this.waiters]) {
      if (passes-- <= 0) break;
      waiter.release();
    }
  }
}
