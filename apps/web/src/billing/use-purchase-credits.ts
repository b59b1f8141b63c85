import { purchaseResultSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

/**
 * Buys credits with the default card. `idempotencyKey` names the click: a retried request reuses
 * the same invoice. The credits land when the provider's webhook arrives, so the balance and the
 * ledger are refreshed afterwards.
 */
export function usePurchaseCredits(installationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { credits: number; idempotencyKey: string }) =>
      apiFetch('/api/billing/purchase-credits', {
        method: 'POST',
        body: { credits: request.credits, idempotency_key: request.idempotencyKey },
        schema: purchaseResultSchema,
        headers: installationHeaders(installationId),
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.credits(installationId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.transactionsAll }),
      ]),
  });
}
