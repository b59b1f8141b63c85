import { describe, expect, it } from 'vitest';
import { badgeLabel } from './status-counts';

describe('badgeLabel', () => {
  it('caps at 20+', () => {
    expect(badgeLabel(0)).toBe('0');
    expect(badgeLabel(20)).toBe('20');
    expect(badgeLabel(21)).toBe('20+');
  });
});
