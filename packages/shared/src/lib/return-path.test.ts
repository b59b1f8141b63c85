import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.js';

describe('safeReturnPath', () => {
  it.each([
    ['/agents', '/agents'],
    ['/gh/acme/webapp/agents?page=2#x', '/gh/acme/webapp/agents?page=2#x'],
    ['', '/'],
    [undefined, '/'],
    ['agents', '/'],
    ['//evil.com/x', '/'],
    ['/\\evil.com', '/'],
    ['https://evil.com', '/'],
    ['/ok\nSet-Cookie: x', '/'],
  ])('%j → %j', (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });
});
