import { describe, expect, it } from 'vitest';
import {
  sunsetAllowsBuying,
  sunsetBanner,
  sunsetClosed,
  sunsetDay,
  sunsetOutOfCredits,
  type Sunset,
} from './sunset.js';

const sunset: Sunset = {
  last_day: '2026-10-21',
  shutdown_day: '2026-11-20',
  credits_buyable: false,
  refund_note: 'Unused credits will be refunded.',
};

describe('sunset texts', () => {
  it('writes days as the spec does', () => {
    expect(sunsetDay('2026-10-21')).toBe('10/21');
    expect(sunsetDay('2027-01-05')).toBe('1/5');
  });

  it('closes when the last day has ended in UTC, not before', () => {
    expect(sunsetClosed(null)).toBe(false);
    expect(sunsetClosed(sunset, new Date('2026-10-21T23:59:59.999Z'))).toBe(false);
    expect(sunsetClosed(sunset, new Date('2026-10-22T00:00:00Z'))).toBe(true);
  });

  it('says credits can no longer be bought, until when agents can be made, refunds and the end', () => {
    expect(sunsetBanner(sunset, new Date('2026-10-01T00:00:00Z'))).toBe(
      'Tandem is shutting down. Credits can no longer be bought. New agents can be made until 10/21. ' +
        'Unused credits will be refunded. The site goes down on 11/20.',
    );
    expect(sunsetBanner({ ...sunset, credits_buyable: true }, new Date('2026-10-30T00:00:00Z'))).toBe(
      'Tandem is shutting down. New agents can no longer be made. Unused credits will be refunded. ' +
        'The site goes down on 11/20.',
    );
  });

  it('has a shutdown version of the out-of-credits notice', () => {
    expect(sunsetOutOfCredits(sunset)).toBe(
      'Your installation is out of credits. Tandem is shutting down: no more credits can be bought, ' +
        'and existing credits can be used until 10/21.',
    );
    expect(sunsetOutOfCredits({ ...sunset, credits_buyable: true })).toBe(
      'Your installation is out of credits. Tandem is shutting down. Existing credits can be used until 10/21.',
    );
  });

  it('lets credits be bought only outside sunset mode, or while the operator keeps buying open', () => {
    const before = new Date('2026-10-01T00:00:00Z');
    expect(sunsetAllowsBuying(null, before)).toBe(true);
    expect(sunsetAllowsBuying(sunset, before)).toBe(false);
    expect(sunsetAllowsBuying({ ...sunset, credits_buyable: true }, before)).toBe(true);
    expect(sunsetAllowsBuying({ ...sunset, credits_buyable: true }, new Date('2026-10-22T00:00:00Z'))).toBe(
      false,
    );
  });
});
