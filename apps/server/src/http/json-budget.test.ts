import { describe, expect, it } from 'vitest';
import { jsonValueCount } from './json-budget.js';

describe('jsonValueCount', () => {
  it('counts containers and items, not what is inside strings', () => {
    expect(jsonValueCount('{"message":"hi"}')).toBe(1);
    expect(jsonValueCount('{"a":[1,2,3],"b":{}}')).toBe(6);
    expect(jsonValueCount('{"text":"[{,,,}] \\" [,"}')).toBe(1);
    expect(jsonValueCount('"\\\\"')).toBe(0);
    expect(jsonValueCount(`{"images":[{"data":"${'A'.repeat(1_000_000)}"}]}`)).toBe(3);
  });

  it('stops at the limit', () => {
    expect(jsonValueCount(`[${'{},'.repeat(1_000_000)}{}]`, 100)).toBe(101);
  });
});
