/**
 * Per-visitor and per-IP message limits of the party agent: at most `max` messages per key in any
 * window (a sliding log of the last `max` send times per key), in this process's memory.
 *
 * Not @fastify/rate-limit: its hook runs before the body is parsed, so it cannot key on the
 * visitor (the lead id is in the body and must first be checked against the lead cookie); the two
 * limits must be checked together, so a message refused by one does not use up the other; and the
 * party limits hold even where TANDEM_RATE_LIMITS is off. Several server processes each keep their
 * own counts (as @fastify/rate-limit's default store would): the daily credit cap is the shared,
 * hard limit.
 */
export class PartyMessageLimiter {
  private readonly sent = new Map<string, number[]>();
  private calls = 0;

  constructor(
    private readonly windowMs = 60_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Records one message for every key when each is under its limit and returns null; otherwise
   * records nothing and returns the first limit hit with the milliseconds until it frees up.
   */
  take<K extends string>(
    limits: { scope: K; key: string; max: number }[],
  ): { scope: K; retryMs: number } | null {
    const now = this.now();
    if (++this.calls % 1000 === 0) this.sweep(now);
    for (const limit of limits) {
      const times = this.recent(limit.key, now);
      if (times.length >= limit.max) return { scope: limit.scope, retryMs: times[0]! + this.windowMs - now };
    }
    for (const limit of limits) {
      const times = this.recent(limit.key, now);
      times.push(now);
      // Only the last `max` times matter for the next check.
      if (times.length > limit.max) times.splice(0, times.length - limit.max);
      this.sent.set(limit.key, times);
    }
    return null;
  }

  private recent(key: string, now: number): number[] {
    const times = this.sent.get(key) ?? [];
    const fresh = times.filter((t) => t > now - this.windowMs);
    if (fresh.length) this.sent.set(key, fresh);
    else this.sent.delete(key);
    return fresh;
  }

  /** Forgets keys with nothing in the window, so memory follows recent senders only. */
  private sweep(now: number): void {
    for (const [key, times] of this.sent) {
      if (!times.some((t) => t > now - this.windowMs)) this.sent.delete(key);
    }
  }
}
