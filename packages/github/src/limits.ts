/**
 * The code-host client's retry and throttle rules (workspace §4 and §9); `rate-limits.ts` turns
 * them into the Octokit plugins' options. The numbers live here so every caller shares them.
 */
export const RETRY = {
  retries: 3,
  baseDelayMs: 1000,
  /** Never retried: the request itself is wrong, so repeating it cannot help. */
  doNotRetry: [400, 401, 403, 404, 410, 422, 451],
} as const;

export const THROTTLE = {
  globalConcurrency: 10,
  auth: { concurrency: 1 },
  search: { concurrency: 1, minTimeMs: 2000 },
  write: { concurrency: 1, minTimeMs: 1000 },
  notifications: { concurrency: 1, minTimeMs: 3000 },
  fallbackSecondaryRateLimitWaitMs: 60_000,
  groupTimeoutMs: 2 * 60_000,
  groupExpiryMs: 5 * 60_000,
  defaultPriority: 5,
} as const;

/** Quadratic back-off: 1 s, 4 s, 9 s for retries 1, 2, 3. */
export function retryDelayMs(retryCount: number): number {
  return RETRY.baseDelayMs * retryCount * retryCount;
}

export function isRetryableStatus(status: number): boolean {
  return !(RETRY.doNotRetry as readonly number[]).includes(status);
}
