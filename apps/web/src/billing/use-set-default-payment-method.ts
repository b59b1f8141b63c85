import { paymentMethodListSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

export function useSetDefaultPaymentMethod(installationId: number, options: { onError?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentMethodId: string) =>
      apiFetch('/api/billing/default-payment-method', {
        method: 'PUT',
        body: { payment_method_id: paymentMethodId },
        schema: paymentMethodListSchema,
        headers: installationHeaders(installationId),
      }),
    onSuccess: (list) => queryClient.setQueryData(queryKeys.paymentMethods(installationId), list),
    onError: () => options.onError?.(),
  });
}
