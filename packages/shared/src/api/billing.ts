import { z } from 'zod';

/**
 * Ledger kinds. The transactions page has three filters (platform §2 Credit Transactions): Agents,
 * Invoices, and Other, which shows gifts too.
 */
export const TRANSACTION_KINDS = ['agent', 'invoice', 'gift', 'other'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** Page sizes the transactions page offers; 25 is the default (platform §9). */
export const TRANSACTION_PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_TRANSACTIONS_PAGE_SIZE = 25;

/** A query-string flag: 'true' / 'false' (as URLSearchParams writes booleans). */
const flag = z
  .enum(['true', 'false'])
  .default('true')
  .transform((v) => v === 'true');

/** GET /api/billing/transactions (platform §7): page is 1-based. */
export const transactionsQuerySchema = z.object({
  installation_id: z.coerce.number().int().positive(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  rows_per_page: z.coerce.number().int().min(1).max(100).default(DEFAULT_TRANSACTIONS_PAGE_SIZE),
  agents: flag,
  invoices: flag,
  other: flag,
});
export type TransactionsQuery = z.input<typeof transactionsQuerySchema>;

/** Platform §3 Transaction; `amount` is signed ledger units (hundredths of a cent). */
export const transactionSchema = z.object({
  id: z.string(),
  amount: z.number().int(),
  description: z.string(),
  created_at: z.string(),
  kind: z.enum(TRANSACTION_KINDS),
  /** The agent that spent the credits (agent rows link to it); null once it is deleted. */
  trajectory_id: z.string().nullable(),
  /** The agent's repository, for the link's path. */
  repo_name: z.string().nullable(),
  invoice_id: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionListSchema = z.object({
  transactions: z.array(transactionSchema),
  count: z.number().int(),
});
export type TransactionList = z.infer<typeof transactionListSchema>;

/** GET /api/billing/credits-remaining?installation_id= */
export const creditsQuerySchema = z.object({ installation_id: z.coerce.number().int().positive() });
/** `credits` in ledger units (hundredths of a cent): shown as round(credits/100) cents (platform §9). */
export const creditsRemainingSchema = z.object({ credits: z.number().int() });
export type CreditsRemaining = z.infer<typeof creditsRemainingSchema>;

export const BILLING_MESSAGES = {
  credits: 'Error fetching credits.',
  missingInstallation: 'Missing installation id',
  transactions: 'There was an error fetching transactions. Please reload or try again later.',
  notMember: 'Installation not found',
} as const;

/** '+30.00¢' style: amount/100 with its sign and a cent sign (platform §9). */
export function formatLedgerAmount(units: number): string {
  const cents = units / 100;
  const sign = cents > 0 ? '+' : cents < 0 ? '-' : '';
  return `${sign}${Math.abs(cents).toLocaleString('en-US', { maximumFractionDigits: 2 })}¢`;
}

/** Credits left, in whole cents (platform §9: round(credits/100)). */
export function formatCredits(units: number): string {
  return `${Math.round(units / 100).toLocaleString('en-US')}¢`;
}
