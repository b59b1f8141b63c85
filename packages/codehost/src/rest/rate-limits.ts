import type { FastifyReply, FastifyRequest } from 'fastify';
import { githubError } from './shapes.js';

/** GitHub's core limit for an installation or a user token: requests per hour. */
export const CORE_LIMIT = 5000;
const HOUR_MS = 60 * 60 * 1000;

/** A limit the next requests meet, as tests ask for it (`RunningCodeHost.simulateRateLimit`). */
export type SimulatedLimit = (
  | {
      /** The primary limit: 403, `x-ratelimit-remaining: 0` and a reset time. */
      kind: 'primary';
      requests: number;
      resetInSeconds?: number;
    }
  | {
      /** A secondary (abuse) limit: 403 or 429 with `retry-after`, as GitHub sends both. */
      kind: 'secondary';
      requests: number;
      retryAfterSeconds?: number;
      status?: 403 | 429;
    }
) & {
  /** Which requests meet it, by their Authorization header (default: every request). */
  only?: (authorization: string | undefined) => boolean;
};

interface Window {
  used: number;
  resetAt: number;
}

/**
 * The REST API's rate limits, as GitHub counts them: per credential, per hour, with the
 * `x-ratelimit-*` headers moving on every request, so a client's throttling sees real numbers.
 * Tests can make the next requests meet a primary or secondary limit.
 */
export class RateLimits {
  private readonly windows = new Map<string, Window>();
  private simulated: (SimulatedLimit & { left: number }) | undefined;
  /** Requests answered with a limit so far (tests check a client met it). */
  limited = 0;

  simulate(limit: SimulatedLimit | undefined): void {
    this.simulated = limit ? { ...limit, left: limit.requests } : undefined;
  }

  /** Counts the request and sets its headers; true when it was answered with a limit instead. */
  check(request: FastifyRequest, reply: FastifyReply): boolean {
    const now = Date.now();
    const key = request.headers.authorization ?? `ip:${request.ip}`;
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { used: 0, resetAt: now + HOUR_MS };
      this.windows.set(key, window);
      if (this.windows.size > 10_000) this.prune(now);
    }
    window.used = Math.min(window.used + 1, CORE_LIMIT);
    const reset = Math.ceil(window.resetAt / 1000);
    const limit = this.simulated;
    const primary = limit?.kind === 'primary' && limit.left > 0;
    const remaining = primary ? 0 : CORE_LIMIT - window.used;
    reply.header('x-ratelimit-limit', String(CORE_LIMIT));
    reply.header('x-ratelimit-remaining', String(remaining));
    reply.header('x-ratelimit-used', String(primary ? CORE_LIMIT : window.used));
    reply.header('x-ratelimit-resource', 'core');
    if (!limit || limit.left <= 0 || (limit.only && !limit.only(request.headers.authorization))) {
      reply.header('x-ratelimit-reset', String(reset));
      return false;
    }
    limit.left -= 1;
    this.limited += 1;
    if (limit.left === 0) this.simulated = undefined;
    if (limit.kind === 'primary') {
      reply.header('x-ratelimit-reset', String(Math.ceil(now / 1000) + (limit.resetInSeconds ?? 1)));
      void reply
        .status(403)
        .send(githubError('API rate limit exceeded. (Simulated by the local code host.)', 403));
      return true;
    }
    reply.header('x-ratelimit-reset', String(reset));
    reply.header('retry-after', String(limit.retryAfterSeconds ?? 1));
    const status = limit.status ?? 403;
    void reply
      .status(status)
      .send(
        githubError(
          'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          status,
        ),
      );
    return true;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
