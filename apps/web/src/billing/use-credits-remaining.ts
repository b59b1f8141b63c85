import { creditsRemainingSchema, INSTALLATION_HEADER } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/**
 * The installation's balance in ledger units (GET /api/billing/credits-remaining). `pollMs` asks
 * again at that interval, while a purchase waits for the provider's confirmation.
 */
export function useCreditsRemaining(
  installationId: number | null,
  options: { pollMs?: number | false } = {},
) {
  return useQuery({
    queryKey: queryKeys.credits(installationId),
    queryFn: () =>
      apiFetch(`/api/billing/credits-remaining?installation_id=${installationId}`, {
        schema: creditsRemainingSchema,
        headers: { [INSTALLATION_HEADER]: String(installationId) },
      }),
    enabled: installationId !== null,
    staleTime: 30_000,
    refetchInterval: options.pollMs ?? false,
  });
}
