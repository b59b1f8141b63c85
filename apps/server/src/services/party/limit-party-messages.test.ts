import { describe, expect, it } from 'vitest';
import { PartyMessageLimiter } from './limit-party-messages.js';

describe('PartyMessageLimiter', () => {
  it('lets max messages through in any minute and says when the next one may come', () => {
    let now = 0;
    const limiter = new PartyMessageLimiter(60_000, () => now);
    const take = () => limiter.take([{ scope: 'visitor', key: 'lead:a', max: 2 }]);
    expect(take()).toBeNull();
    now = 10_000;
    expect(take()).toBeNull();
    now = 20_000;
    expect(take()).toEqual({ scope: 'visitor', retryMs: 40_000 });
    // Sliding: the first message leaves the window at 60 s, the second at 70 s.
    now = 60_001;
    expect(take()).toBeNull();
    expect(take()).toEqual({ scope: 'visitor', retryMs: 9_999 });
  });

  it('checks every limit before counting any, so a refusal uses up none', () => {
    const limiter = new PartyMessageLimiter(60_000, () => 0);
    const both = (lead: string) =>
      limiter.take([
        { scope: 'network' as const, key: 'ip:1', max: 2 },
        { scope: 'visitor' as const, key: lead, max: 1 },
      ]);
    expect(both('lead:a')).toBeNull();
    expect(both('lead:a')).toMatchObject({ scope: 'visitor' });
    // The refused one did not count against the IP: one more visitor still fits.
    expect(both('lead:b')).toBeNull();
    expect(both('lead:c')).toMatchObject({ scope: 'network' });
  });
});
