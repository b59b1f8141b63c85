import { receiptEmailSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

export function useReceiptEmail(installationId: number) {
  return useQuery({
    queryKey: queryKeys.receiptEmail(installationId),
    queryFn: () =>
      apiFetch('/api/billing/receipt-email', {
        schema: receiptEmailSchema,
        headers: installationHeaders(installationId),
      }),
  });
}
