import { describe, expect, it } from 'vitest';
import { createScrubber } from './scrub.js';

describe('createScrubber', () => {
  it('masks every occurrence of each secret', () => {
    const scrub = createScrubber(['s3cr3t-value', 'other-token']);
    expect(scrub('a s3cr3t-value b s3cr3t-value c other-token')).toBe(
      'a [REDACTED] b [REDACTED] c [REDACTED]',
    );
  });

  it('masks longer secrets first so no remainder of them stays visible', () => {
    const scrub = createScrubber(['abcd', 'abcdefgh']);
    expect(scrub('x abcdefgh y abcd')).toBe('x [REDACTED] y [REDACTED]');
  });

  it('ignores values shorter than 4 characters and empty ones', () => {
    const scrub = createScrubber(['abc', '', '1', 'true']);
    expect(scrub('abc 1 is true')).toBe('abc 1 is [REDACTED]');
  });

  it('also masks a secret without the whitespace it was stored with', () => {
    expect(createScrubber(['token-123\n'])('value: token-123.')).toBe('value: [REDACTED].');
  });

  it('masks credentials in URLs, known or not', () => {
    const scrub = createScrubber([]);
    expect(scrub('fatal: https://x-access-token:ghs_abc123@github.com/o/r.git not found')).toBe(
      'fatal: https://x-access-token:[REDACTED]@github.com/o/r.git not found',
    );
    expect(scrub("remote 'http://user:p%40ss@localhost:8080/r'")).toBe(
      "remote 'http://user:[REDACTED]@localhost:8080/r'",
    );
    expect(scrub('https://github.com/o/r and git@github.com:o/r.git and a:b@c')).toBe(
      'https://github.com/o/r and git@github.com:o/r.git and a:b@c',
    );
  });

  it('combines both on the same text', () => {
    const scrub = createScrubber(['ghs_abc123']);
    expect(scrub('token ghs_abc123 in https://x-access-token:ghs_abc123@github.com')).toBe(
      'token [REDACTED] in https://x-access-token:[REDACTED]@github.com',
    );
  });
});
