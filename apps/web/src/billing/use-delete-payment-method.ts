import { paymentMethodListSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

/** Removes a card; the server first moves the default to another card (platform §4). */
export function useDeletePaymentMethod(installationId: number, options: { onError?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentMethodId: string) =>
      apiFetch(
        `/api/billing/delete-payment-method?payment_method_id=${encodeURIComponent(paymentMethodId)}`,
        {
          method: 'DELETE',
          schema: paymentMethodListSchema,
          headers: installationHeaders(installationId),
        },
      ),
    onSuccess: (list) => queryClient.setQueryData(queryKeys.paymentMethods(installationId), list),
    onError: () => options.onError?.(),
  });
}
