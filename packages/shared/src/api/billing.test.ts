import { describe, expect, it } from 'vitest';
import { formatCredits, formatLedgerAmount, transactionsQuerySchema } from './billing.js';
import { updateInstallationUserSchema, updateUserSettingsSchema } from './settings.js';

describe('billing and settings shapes', () => {
  it('shows amounts as amount/100 cents with their sign, and credits as whole cents', () => {
    expect(formatLedgerAmount(300_000)).toBe('+3,000¢');
    expect(formatLedgerAmount(-150)).toBe('-1.5¢');
    expect(formatLedgerAmount(-3)).toBe('-0.03¢');
    expect(formatLedgerAmount(0)).toBe('0¢');
    expect(formatCredits(295_550)).toBe('2,956¢');
  });

  it('reads the transactions query: filters default on, 25 rows, page 1', () => {
    expect(transactionsQuerySchema.parse({ installation_id: '7' })).toEqual({
      installation_id: 7,
      page: 1,
      rows_per_page: 25,
      agents: true,
      invoices: true,
      other: true,
    });
    expect(transactionsQuerySchema.parse({ installation_id: '7', agents: 'false' }).agents).toBe(false);
    expect(transactionsQuerySchema.safeParse({}).success).toBe(false);
  });

  it('takes one or both toggles, and usernames the code host could have', () => {
    expect(updateUserSettingsSchema.safeParse({}).success).toBe(false);
    expect(updateUserSettingsSchema.safeParse({ auto_create_pr: false }).success).toBe(true);
    const user = (username: string) =>
      updateInstallationUserSchema.safeParse({ username, role: 'member' }).success;
    expect(user('ada')).toBe(true);
    expect(user('a-b-c9')).toBe(true);
    expect(user('-ada')).toBe(false);
    expect(user('a--b')).toBe(false);
    expect(user('a'.repeat(40))).toBe(false);
    expect(updateInstallationUserSchema.safeParse({ username: 'bob', role: null }).success).toBe(true);
  });
});
