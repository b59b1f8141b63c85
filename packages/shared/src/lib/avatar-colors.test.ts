import { describe, expect, it } from 'vitest';
import { AVATAR_PALETTE, avatarTextColor, contrastRatio } from './avatar-colors.js';

describe('avatar initials', () => {
  it('meet WCAG AA (4.5:1) on every palette colour', () => {
    for (const background of AVATAR_PALETTE) {
      expect(contrastRatio(background, avatarTextColor(background)), background).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('computes contrast ratios like WCAG', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fafafa', '#c0ca33')).toBeCloseTo(1.71, 1);
  });
});
