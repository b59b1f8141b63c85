import { and, eq, sql } from 'drizzle-orm';
import { billingAccounts, type Db } from '@tandem/db';
import Stripe from 'stripe';
import { AppError } from '../../errors/app-error.js';
import type { BillingProvider } from '../../billing/billing-setup.js';

/** The installation's billing row, created with defaults on first use. */
export async function billingAccount(db: Db, installationId: number) {
  await db.insert(billingAccounts).values({ installationId }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(billingAccounts)
    .where(eq(billingAccounts.installationId, installationId));
  return row!;
}

/**
 * The installation's Stripe customer, created on first use. Two first requests at once may both
 * create one at Stripe; the conditional UPDATE keeps the first and the other is left unused.
 */
export async function ensureCustomer(
  db: Db,
  billing: BillingProvider,
  installationId: number,
): Promise<string> {
  const account = await billingAccount(db, installationId);
  if (account.stripeCustomerId && account.customerProvider === billing.mode) return account.stripeCustomerId;
  const customer = await stripeCall(() =>
    billing.stripe.customers.create(
      {
        metadata: { installation_id: String(installationId) },
        ...(account.receiptEmail ? { email: account.receiptEmail } : {}),
      },
      { idempotencyKey: `customer-${billing.mode}-${installationId}-${account.createdAt.getTime()}` },
    ),
  );
  const stale = account.stripeCustomerId;
  const [claimed] = await db
    .update(billingAccounts)
    .set({ stripeCustomerId: customer.id, customerProvider: billing.mode, updatedAt: sql`now()` })
    .where(
      and(
        eq(billingAccounts.installationId, installationId),
        stale === null
          ? sql`${billingAccounts.stripeCustomerId} is null`
          : eq(billingAccounts.stripeCustomerId, stale),
      ),
    )
    .returning({ id: billingAccounts.stripeCustomerId });
  if (claimed?.id) return claimed.id;
  return (await billingAccount(db, installationId)).stripeCustomerId!;
}

/** The customer id when one exists for this provider, without creating one. */
export async function existingCustomer(
  db: Db,
  billing: BillingProvider,
  installationId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ id: billingAccounts.stripeCustomerId, provider: billingAccounts.customerProvider })
    .from(billingAccounts)
    .where(eq(billingAccounts.installationId, installationId));
  return row?.id && row.provider === billing.mode ? row.id : null;
}

/**
 * Calls Stripe: a card's refusal becomes a 402 with the provider's own message (platform §8);
 * anything else is the provider failing (502), logged by the error handler's caller.
 */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      throw new AppError('payment_required', error.message, { decline_code: error.decline_code ?? null });
    }
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
      throw new AppError('not_found', error.message);
    }
    if (error instanceof Stripe.errors.StripeError) {
      throw new AppError('bad_gateway', `The payment provider failed: ${error.message}`);
    }
    throw error;
  }
}

/** Platform §3 Payment method, from Stripe's. */
export function toPaymentMethod(pm: Stripe.PaymentMethod) {
  return {
    id: pm.id,
    display_brand: pm.card?.display_brand ?? pm.card?.brand ?? pm.type,
    last4: pm.card?.last4 ?? '',
    exp_month: pm.card?.exp_month ?? 0,
    exp_year: pm.card?.exp_year ?? 0,
  };
}
