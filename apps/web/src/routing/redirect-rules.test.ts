import { describe, expect, it } from 'vitest';
import { parseTimeoutParam, signedInRedirect } from './redirect-rules';

describe('signedInRedirect', () => {
  it.each([
    ['/', true, '/agents'],
    ['/activity', true, '/agents'],
    ['/agents', true, null],
    ['/settings', true, null],
    ['/dashboard/settings', true, '/settings'],
    ['/dashboard/repo', true, '/repo'],
    ['/dashboard/installations', false, '/installations'],
    ['/agents', false, '/installations'],
    ['/', false, '/installations'],
    ['/installations', false, null],
    ['/docs/cli', false, null],
    ['/blog', false, null],
  ])('%s (active installation: %s) → %s', (path, active, expected) => {
    expect(signedInRedirect(path, active)).toBe(expected);
  });
});

describe('parseTimeoutParam', () => {
  it.each([
    ['30s', 30_000],
    ['30', 30_000],
    ['1.5s', 1500],
    ['250ms', 250],
    ['2m', 120_000],
    [null, null],
    ['soon', null],
  ])('%s → %s', (value, expected) => {
    expect(parseTimeoutParam(value)).toBe(expected);
  });
});
