import { receiptEmailSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

export function useUpdateReceiptEmail(installationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      apiFetch('/api/billing/receipt-email', {
        method: 'POST',
        body: { email },
        schema: receiptEmailSchema,
        headers: installationHeaders(installationId),
      }),
    onSuccess: (stored) => queryClient.setQueryData(queryKeys.receiptEmail(installationId), stored),
  });
}
