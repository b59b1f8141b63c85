import { describe, expect, it } from 'vitest';
import {
  autoFillSettingsSchema,
  giftCreditsSchema,
  purchaseCreditsSchema,
  receiptEmailSchema,
} from './billing-payments.js';

describe('billing payment shapes', () => {
  it('buys 500 to 100 000 whole credits with a click key', () => {
    const buy = (credits: number) =>
      purchaseCreditsSchema.safeParse({ credits, idempotency_key: 'click-0001' });
    expect(buy(500).success).toBe(true);
    expect(buy(100_000).success).toBe(true);
    expect(buy(499).error?.issues[0]?.message).toBe('Minimum 500');
    expect(buy(100_001).error?.issues[0]?.message).toBe('Maximum 100000');
    expect(buy(600.5).success).toBe(false);
    expect(purchaseCreditsSchema.safeParse({ credits: 500, idempotency_key: 'a b' }).success).toBe(false);
  });

  it('takes an empty receipt email (receipts off) or an address (platform §5)', () => {
    expect(receiptEmailSchema.parse({ email: '' })).toEqual({ email: '' });
    expect(receiptEmailSchema.parse({ email: ' billing@acme.test ' })).toEqual({
      email: 'billing@acme.test',
    });
    expect(receiptEmailSchema.safeParse({ email: 'nope' }).error?.issues[0]?.message).toBe(
      'Invalid email address',
    );
  });

  it('bounds auto-fill and gifts', () => {
    expect(autoFillSettingsSchema.safeParse({ enabled: true, threshold: 0, amount: 500 }).success).toBe(true);
    expect(autoFillSettingsSchema.safeParse({ enabled: true, threshold: -1, amount: 500 }).success).toBe(
      false,
    );
    expect(autoFillSettingsSchema.safeParse({ enabled: true, threshold: 10, amount: 100 }).success).toBe(
      false,
    );
    expect(giftCreditsSchema.safeParse({ installation_id: 1, credits: 0 }).success).toBe(false);
    expect(giftCreditsSchema.parse({ installation_id: 1, credits: 5 })).toEqual({
      installation_id: 1,
      credits: 5,
    });
  });
});
