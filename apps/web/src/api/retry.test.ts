import { describe, expect, it } from 'vitest';
import { ApiError } from './client';
import { retryUnlessClientError } from './retry';

describe('retryUnlessClientError', () => {
  it('never retries a 4xx', () => {
    for (const status of [400, 401, 403, 404, 429]) {
      expect(retryUnlessClientError(0, new ApiError('x', status))).toBe(false);
    }
  });

  it('retries server and network failures twice', () => {
    expect(retryUnlessClientError(0, new ApiError('x', 502))).toBe(true);
    expect(retryUnlessClientError(1, new ApiError('x', 0))).toBe(true);
    expect(retryUnlessClientError(2, new ApiError('x', 502))).toBe(false);
    expect(retryUnlessClientError(0, new Error('boom'))).toBe(true);
  });
});
