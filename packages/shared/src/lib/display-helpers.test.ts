import { describe, expect, it } from 'vitest';
import { AVATAR_PALETTE, avatarColor } from './avatar-colors.js';
import { relativeTime } from './relative-time.js';
import { truncateTooltip } from './truncate.js';

describe('relativeTime', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  it.each([
    [0, 'just now'],
    [59, 'just now'],
    [60, '1 minute ago'],
    [2 * 3600, '2 hours ago'],
    [24 * 3600, '1 day ago'],
    [8 * 24 * 3600, '1 week ago'],
    [45 * 24 * 3600, '1 month ago'],
    [800 * 24 * 3600, '2 years ago'],
    [-30, 'just now'],
  ])('%i s ago → %s', (seconds, text) => {
    expect(relativeTime(ago(seconds), now)).toBe(text);
  });
});

describe('avatarColor', () => {
  it('picks from the 15-colour palette, stably', () => {
    expect(AVATAR_PALETTE).toHaveLength(15);
    expect(AVATAR_PALETTE).toContain(avatarColor('ada'));
    expect(avatarColor('ada')).toBe(avatarColor('ada'));
    const used = new Set(['ada', 'bob', 'eve', 'carol', 'dave', 'mallory', 'trent'].map(avatarColor));
    expect(used.size).toBeGreaterThan(3);
  });
});

describe('truncateTooltip', () => {
  it('keeps short text and cuts long text at 1000 characters with an ellipsis', () => {
    expect(truncateTooltip('short')).toBe('short');
    expect(truncateTooltip('x'.repeat(1000))).toBe('x'.repeat(1000));
    const cut = truncateTooltip('y'.repeat(1001));
    expect(cut).toBe(`${'y'.repeat(1000)}…`);
  });
});
