import { bigint, boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { installations } from './installations.js';

/**
 * An installation's billing: its Stripe customer (payment methods live at Stripe, never here), the
 * receipt email, and auto-fill. `customer_provider` says which Stripe the customer id belongs to
 * ('stripe' or 'local'), so switching the deployment to real Stripe starts a fresh customer.
 */
export const billingAccounts = pgTable('billing_accounts', {
  installationId: bigint('installation_id', { mode: 'number' })
    .primaryKey()
    .references(() => installations.id, { onDelete: 'cascade' }),
  stripeCustomerId: text('stripe_customer_id'),
  customerProvider: text('customer_provider'),
  /** Empty: no receipts (platform §4). */
  receiptEmail: text('receipt_email').notNull().default(''),
  autoFillEnabled: boolean('auto_fill_enabled').notNull().default(false),
  /** Credits: below this balance an auto-fill buys `auto_fill_amount` credits. */
  autoFillThreshold: integer('auto_fill_threshold').notNull().default(500),
  autoFillAmount: integer('auto_fill_amount').notNull().default(2000),
  /**
   * Set by the one spender whose conditional UPDATE claims the crossing; cleared when the paid
   * invoice's webhook credits the ledger (or the charge fails). Concurrent spenders see it set.
   */
  autoFillPendingAt: timestamp('auto_fill_pending_at', { withTimezone: true, precision: 6 }),
  /** The provider's message for the last failed auto-fill; auto-fill waits until settings are saved. */
  autoFillError: text('auto_fill_error'),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});

/** Stripe events already applied, by event id: a redelivered event changes nothing. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});
