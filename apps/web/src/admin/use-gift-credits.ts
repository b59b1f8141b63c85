import { giftResultSchema, type GiftCredits } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** Gifts credits to an installation (product admins), then refreshes the admin table. */
export function useGiftCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gift: GiftCredits) =>
      apiFetch('/api/billing/admin/gift-credits', { method: 'POST', body: gift, schema: giftResultSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminInstallationsAll }),
  });
}
