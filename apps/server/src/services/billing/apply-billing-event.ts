import { recordTransaction } from '@tandem/agent';
import { and, eq, sql } from 'drizzle-orm';
import { billingAccounts, billingEvents, creditTransactions, type Db } from '@tandem/db';
import { LEDGER_UNITS_PER_CREDIT } from '@tandem/shared';
import type { Logger } from 'pino';
import type Stripe from 'stripe';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { AppError } from '../../errors/app-error.js';

/** Checks `Stripe-Signature` over the raw body; an unsigned, forged or stale event is a 401. */
export function verifyBillingEvent(
  billing: BillingProvider,
  raw: string,
  signature: string | undefined,
): Stripe.Event {
  if (!signature) throw new AppError('unauthorized', 'Missing Stripe-Signature');
  try {
    return billing.stripe.webhooks.constructEvent(raw, signature, billing.webhookSecret);
  } catch {
    throw new AppError('unauthorized', 'Invalid Stripe-Signature');
  }
}

export type EventOutcome = 'credited' | 'duplicate' | 'ignored';

/**
 * Applies a verified event. `invoice.paid` credits the ledger with the amount paid, as an `invoice`
 * row linked to the invoice; the event id is stored in the same transaction, so a redelivered event
 * (or a second event for the same invoice) credits once. Other events are acknowledged.
 */
export async function applyBillingEvent(
  db: Db,
  event: Stripe.Event,
  logger: Pick<Logger, 'warn'>,
): Promise<EventOutcome> {
  if (event.type !== 'invoice.paid') return 'ignored';
  const invoice = event.data.object;
  const installationId = Number(invoice.metadata?.installation_id);
  const customer = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
  if (!Number.isInteger(installationId) || installationId <= 0 || !invoice.id) {
    logger.warn({ event: event.id }, 'paid invoice without an installation: not credited');
    return 'ignored';
  }
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(billingEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!fresh) return 'duplicate';
    // The installation's row lock orders this against a concurrent delivery of another event id.
    const [account] = await tx
      .select({ customer: billingAccounts.stripeCustomerId })
      .from(billingAccounts)
      .where(eq(billingAccounts.installationId, installationId))
      .for('update');
    if (!account || account.customer !== customer) {
      logger.warn({ event: event.id, installationId }, 'paid invoice of another customer: not credited');
      return 'ignored';
    }
    const [already] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.kind, 'invoice'), eq(creditTransactions.invoiceId, invoice.id!)))
      .limit(1);
    if (already) return 'duplicate';
    const credits = invoice.amount_paid;
    const autoFill = invoice.metadata?.purpose === 'auto_fill';
    await recordTransaction(tx, {
      installationId,
      amount: credits * LEDGER_UNITS_PER_CREDIT,
      kind: 'invoice',
      invoiceId: invoice.id!,
      description: autoFill ? `Auto-fill: ${credits} credits` : `Purchased ${credits} credits`,
    });
    if (autoFill) {
      await tx
        .update(billingAccounts)
        .set({ autoFillPendingAt: null, updatedAt: sql`now()` })
        .where(eq(billingAccounts.installationId, installationId));
    }
    return 'credited';
  });
}
