import { creditsRemainingSchema, INSTALLATION_HEADER } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The installation's balance in ledger units (GET /api/billing/credits-remaining). */
export function useCreditsRemaining(installationId: number | null) {
  return useQuery({
    queryKey: queryKeys.credits(installationId),
    queryFn: () =>
      apiFetch(`/api/billing/credits-remaining?installation_id=${installationId}`, {
        schema: creditsRemainingSchema,
        headers: { [INSTALLATION_HEADER]: String(installationId) },
      }),
    enabled: installationId !== null,
    staleTime: 30_000,
  });
}
