import type { Db } from '@tandem/db';
import type { PurchaseCredits, PurchaseResult } from '@tandem/shared';
import type { BillingProvider } from '../../billing/billing-setup.js';
import { chargeInvoice } from './charge-invoice.js';

/** Buys credits with the default card; they land when the provider confirms the payment. */
export async function purchaseCredits(
  db: Db,
  billing: BillingProvider,
  installationId: number,
  request: PurchaseCredits,
): Promise<PurchaseResult> {
  return chargeInvoice(db, billing, {
    installationId,
    credits: request.credits,
    purpose: 'purchase',
    // Scoped to the installation: the same browser key elsewhere is a different purchase.
    key: `purchase-${installationId}-${request.idempotency_key}`,
  });
}
