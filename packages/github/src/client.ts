import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { RETRY, THROTTLE } from './limits.js';

export interface ClientLogger {
  warn(message: string, details?: Record<string, unknown>): void;
}

export interface GitHubClientOptions {
  /** REST base: https://api.github.com, https://HOST/api/v3 (GHE), or the local code host's /api/v3. */
  baseUrl: string;
  /** A token, or an @octokit/auth-* strategy's options via `authStrategy`. */
  auth?: string;
  logger?: ClientLogger;
  /** Request throttling per the spec; tests switch it off except where they prove it. */
  throttle?: boolean;
  /** Multiplies every back-off wait (1 in production; tiny in tests so retries run fast). */
  delayScale?: number;
  userAgent?: string;
}

// Typed as plain Octokit: the plugins only add options and internal hooks we never call directly.
const GitHubOctokit: typeof Octokit = Octokit.plugin(retry, throttling);
export type GitHubClient = Octokit;

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * The one code-host client: Octokit with the spec's retry and throttle rules (workspace §4, §9).
 * Rate limits (primary or secondary) are retried once after the wait GitHub asks for; other
 * failures up to 3 times with quadratic back-off, never for statuses that cannot succeed later.
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const scale = options.delayScale ?? 1;
  const logger = options.logger;
  return new GitHubOctokit({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    auth: options.auth,
    userAgent: options.userAgent ?? 'tandem',
    log: quiet,
    retry: {
      doNotRetry: [...RETRY.doNotRetry],
      retries: RETRY.retries,
      retryAfterBaseValue: RETRY.baseDelayMs * scale,
    },
    throttle: {
      enabled: options.throttle ?? true,
      retryAfterBaseValue: 1000 * scale,
      fallbackSecondaryRateRetryAfter: THROTTLE.fallbackSecondaryRateLimitWaitMs / 1000,
      timeout: THROTTLE.groupTimeoutMs,
      onRateLimit: (retryAfter, request, _octokit, retryCount) => {
        logger?.warn('Request quota exhausted', { method: request.method, url: request.url, retryAfter });
        return retryCount < 1;
      },
      onSecondaryRateLimit: (retryAfter, request, _octokit, retryCount) => {
        logger?.warn('SecondaryRateLimit detected', { method: request.method, url: request.url, retryAfter });
        return retryCount < 1;
      },
    },
  });
}
