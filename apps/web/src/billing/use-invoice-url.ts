import { invoiceUrlSchema } from '@tandem/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { installationHeaders } from './installation-headers';

/** The hosted page of a ledger row's invoice, asked for when the row is clicked. */
export function useInvoiceUrl(installationId: number | null) {
  return useMutation({
    mutationFn: (invoiceId: string) =>
      apiFetch(`/api/billing/invoice-url?invoice_id=${encodeURIComponent(invoiceId)}`, {
        schema: invoiceUrlSchema,
        headers: installationId === null ? {} : installationHeaders(installationId),
      }),
  });
}
