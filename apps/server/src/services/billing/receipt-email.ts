import { eq, sql } from 'drizzle-orm';
import { billingAccounts, type Db } from '@tandem/db';
import type { ReceiptEmail } from '@tandem/shared';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { billingAccount, existingCustomer, stripeCall } from './billing-account.js';

export async function getReceiptEmail(db: Db, installationId: number): Promise<ReceiptEmail> {
  return { email: (await billingAccount(db, installationId)).receiptEmail };
}

/**
 * Where receipts go; empty turns them off (platform §4). Stripe emails the receipt of each paid
 * invoice to the customer's email, so the customer's email follows this setting.
 */
export async function setReceiptEmail(
  db: Db,
  billing: BillingProvider | undefined,
  installationId: number,
  request: ReceiptEmail,
): Promise<ReceiptEmail> {
  await billingAccount(db, installationId);
  const customer = billing ? await existingCustomer(db, billing, installationId) : null;
  if (billing && customer) {
    await stripeCall(() => billing.stripe.customers.update(customer, { email: request.email }));
  }
  await db
    .update(billingAccounts)
    .set({ receiptEmail: request.email, updatedAt: sql`now()` })
    .where(eq(billingAccounts.installationId, installationId));
  return { email: request.email };
}
