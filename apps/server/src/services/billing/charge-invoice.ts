import type { Db } from '@tandem/db';
import { PAYMENT_MESSAGES, type PurchaseResult } from '@tandem/shared';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { AppError } from '../../errors/app-error.js';
import { ensureCustomer, stripeCall } from './billing-account.js';
import { listPaymentMethods } from './payment-methods.js';

export type ChargePurpose = 'purchase' | 'auto_fill';

/**
 * Bills `credits` (1 credit = 1 US cent) as a Stripe invoice paid off-session with the default
 * card. Every step carries an idempotency key derived from `key`, so a retried request reuses the
 * same invoice and never charges twice. The ledger is credited only by the verified `invoice.paid`
 * webhook (apply-billing-event.ts), never here.
 */
export async function chargeInvoice(
  db: Db,
  billing: BillingProvider,
  charge: { installationId: number; credits: number; purpose: ChargePurpose; key: string },
): Promise<PurchaseResult> {
  const { installationId, credits, purpose, key } = charge;
  const customer = await ensureCustomer(db, billing, installationId);
  const { default_method: paymentMethod } = await listPaymentMethods(db, billing, installationId);
  if (!paymentMethod) throw new AppError('bad_request', PAYMENT_MESSAGES.noPaymentMethod);
  const description = purpose === 'auto_fill' ? `Auto-fill: ${credits} credits` : `${credits} credits`;
  const metadata = { installation_id: String(installationId), credits: String(credits), purpose };
  const invoice = await stripeCall(() =>
    billing.stripe.invoices.create(
      {
        customer,
        collection_method: 'charge_automatically',
        auto_advance: false,
        description,
        metadata,
      },
      { idempotencyKey: `${key}-invoice` },
    ),
  );
  const invoiceId = invoice.id!;
  if (invoice.status === 'paid') return { invoice_id: invoiceId, status: 'paid' };
  if (invoice.status === 'draft') {
    await stripeCall(() =>
      billing.stripe.invoiceItems.create(
        {
          customer,
          invoice: invoiceId,
          amount: credits,
          currency: 'usd',
          description: `Tandem credits (${credits})`,
        },
        { idempotencyKey: `${key}-item` },
      ),
    );
    await stripeCall(() =>
      billing.stripe.invoices.finalizeInvoice(invoiceId, {}, { idempotencyKey: `${key}-finalize` }),
    );
  }
  try {
    const paid = await stripeCall(() =>
      billing.stripe.invoices.pay(
        invoiceId,
        { payment_method: paymentMethod, off_session: true },
        { idempotencyKey: `${key}-pay` },
      ),
    );
    return { invoice_id: invoiceId, status: paid.status ?? 'open' };
  } catch (error) {
    // A refused card leaves no open invoice behind for the customer to owe; the refusal is what
    // the caller sees (a retry of the same key replays it, a new click starts a new invoice).
    if (error instanceof AppError && error.code === 'payment_required') {
      await billing.stripe.invoices.voidInvoice(invoiceId).catch(() => undefined);
    }
    throw error;
  }
}
