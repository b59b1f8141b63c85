import { paymentMethodListSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

/** The installation's cards and its default (GET /api/billing/payment-methods). */
export function usePaymentMethods(installationId: number) {
  return useQuery({
    queryKey: queryKeys.paymentMethods(installationId),
    queryFn: () =>
      apiFetch('/api/billing/payment-methods', {
        schema: paymentMethodListSchema,
        headers: installationHeaders(installationId),
      }),
  });
}
