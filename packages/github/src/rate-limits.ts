import type { ThrottlingOptions } from '@octokit/plugin-throttling';
import type { RetryOptions } from '@octokit/plugin-retry';
import { RETRY, THROTTLE } from './limits.js';
import type { ClientLogger } from './logger.js';

/** The log texts of workspace §8, word for word: operators grep for them. */
export const RATE_LIMIT_LOG = {
  primary: 'Request quota exhausted',
  secondary: 'SecondaryRateLimit detected',
} as const;

/** Workspace §4: a primary or secondary rate limit is retried once, after the wait GitHub asks for. */
export const RATE_LIMIT_RETRIES = 1;

export interface LimitSettings {
  /** Concurrency and spacing limits; rate-limit handling stays on either way. */
  throttle: boolean;
  /** Multiplies every wait (back-off and rate-limit waits); 1 in production. */
  delayScale: number;
  /** Requests with the same key share one set of limits: one key per credential. */
  key: string;
  logger: ClientLogger | undefined;
}

/**
 * @octokit/plugin-retry options. 429 joins the spec's never-retry list because the retry plugin
 * would retry it three times ignoring `retry-after`; rate limits (403 or 429 with GitHub's markers)
 * belong to the throttling plugin, which waits as told and retries once.
 */
export function retryOptions(settings: LimitSettings): RetryOptions {
  return {
    doNotRetry: [...RETRY.doNotRetry, 429],
    retries: RETRY.retries,
    // The plugin waits retryAfterBaseValue × (attempt)², i.e. retryDelayMs(attempt): 1 s, 4 s, 9 s.
    retryAfterBaseValue: RETRY.baseDelayMs * settings.delayScale,
  };
}

type LimiterGroup = NonNullable<ThrottlingOptions['write']>;

/**
 * A stand-in for a Bottleneck group that runs every job at once: with throttling off we still want
 * the plugin's rate-limit handling, and the plugin only offers that together with its limiters.
 */
const unlimitedGroup = {
  key: () => ({
    schedule: (...args: unknown[]) => {
      // Bottleneck's schedule([jobOptions,] fn, ...fnArgs)
      const start = typeof args[0] === 'function' ? 0 : 1;
      const job = args[start] as (...jobArgs: unknown[]) => unknown;
      return Promise.resolve().then(() => job(...args.slice(start + 1)));
    },
  }),
} as unknown as LimiterGroup;

/**
 * @octokit/plugin-throttling options: workspace §4's retry-once rule and §9's limits. The plugin's
 * own limiter groups already hold THROTTLE's numbers (global 10; auth 1; search 1 / 2000 ms; write
 * 1 / 1000 ms; notifications 1 / 3000 ms; priority 0-9, default 5); GraphQL queries count as writes.
 */
export function throttleOptions(settings: LimitSettings): ThrottlingOptions {
  const { logger } = settings;
  const onLimit =
    (message: string) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
      const willRetry = retryCount < RATE_LIMIT_RETRIES;
      logger?.warn(message, { method: request.method, url: request.url, retryAfter, retryCount, willRetry });
      return willRetry;
    };
  // The plugin's limiter groups are process-wide; `id` picks this credential's limiters inside them.
  const limiters = settings.throttle
    ? {}
    : {
        global: unlimitedGroup,
        auth: unlimitedGroup,
        search: unlimitedGroup,
        write: unlimitedGroup,
        notifications: unlimitedGroup,
      };
  return {
    ...limiters,
    id: settings.key,
    timeout: THROTTLE.groupTimeoutMs,
    // retryAfter arrives in seconds (retry-after header, or until x-ratelimit-reset).
    retryAfterBaseValue: 1000 * settings.delayScale,
    fallbackSecondaryRateRetryAfter: THROTTLE.fallbackSecondaryRateLimitWaitMs / 1000,
    onRateLimit: onLimit(RATE_LIMIT_LOG.primary),
    onSecondaryRateLimit: onLimit(RATE_LIMIT_LOG.secondary),
  };
}
