import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryDelayMs } from './limits.js';

describe('code-host retry rules', () => {
  it('backs off quadratically from 1000 ms', () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([1000, 4000, 9000]);
  });
  it.each([400, 401, 403, 404, 410, 422, 451])('never retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(false);
  });
  it.each([500, 502, 503, 504])('retries %i', (status) => {
    expect(isRetryableStatus(status)).toBe(true);
  });
});
