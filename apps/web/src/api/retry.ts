import { ApiError } from './client';

/**
 * TanStack Query's `retry` for reads whose 4xx answers will not change by asking again (an
 * unknown file or log, no access; retrying a 429 makes the limit worse): only server and network
 * failures are retried, twice.
 */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}
