import { and, eq } from 'drizzle-orm';
import { creditTransactions, type Db } from '@tandem/db';
import { PAYMENT_MESSAGES, type InvoiceUrl } from '@tandem/shared';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { AppError } from '../../errors/app-error.js';

/**
 * The hosted page of an invoice in this installation's ledger. An invoice that is not in the
 * ledger, or that the provider cannot show, is 'Failed to fetch invoice URL.' (platform §8).
 */
export async function invoiceUrl(
  db: Db,
  billing: BillingProvider,
  installationId: number,
  invoiceId: string,
): Promise<InvoiceUrl> {
  const [row] = await db
    .select({ id: creditTransactions.id })
    .from(creditTransactions)
    .where(
      and(eq(creditTransactions.installationId, installationId), eq(creditTransactions.invoiceId, invoiceId)),
    )
    .limit(1);
  if (!row) throw new AppError('not_found', PAYMENT_MESSAGES.invoiceUrl);
  const invoice = await billing.stripe.invoices.retrieve(invoiceId).catch(() => null);
  if (!invoice?.hosted_invoice_url) throw new AppError('bad_gateway', PAYMENT_MESSAGES.invoiceUrl);
  return { url: invoice.hosted_invoice_url };
}
