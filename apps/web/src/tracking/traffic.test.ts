import { describe, expect, it } from 'vitest';
import { leadData, trackingRefused, trafficSource } from './traffic';

describe('traffic source', () => {
  const none = new URLSearchParams();
  it.each([
    [new URLSearchParams('utm_source=newsletter'), 'https://www.google.com/', 'newsletter'],
    [none, 'https://www.linkedin.com/feed/', 'linkedin'],
    [none, 'https://www.google.co.uk/', 'google'],
    [none, 'https://news.ycombinator.com/item?id=1', 'news.ycombinator.com'],
    [none, '', 'website'],
    [none, 'https://tandem.example/docs', 'website'],
  ])('%s from %s → %s', (params, referrer, expected) => {
    expect(trafficSource(params, referrer, 'tandem.example')).toBe(expected);
  });

  it('collects the lead data keys', () => {
    const params = new URLSearchParams('utm_medium=cpc&gclid=abc&utm_campaign=launch&other=x');
    expect(leadData(params, 'https://www.google.com/', 'tandem.example', 'twobutton')).toEqual({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'launch',
      gclid: 'abc',
      landing_variant: 'twobutton',
    });
  });

  it('respects Do Not Track and Global Privacy Control', () => {
    const win = {} as Window;
    expect(trackingRefused({ doNotTrack: '1' } as Navigator, win)).toBe(true);
    expect(
      trackingRefused({ doNotTrack: null, globalPrivacyControl: true } as unknown as Navigator, win),
    ).toBe(true);
    expect(trackingRefused({ doNotTrack: null } as Navigator, win)).toBe(false);
  });
});
