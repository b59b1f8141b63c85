import { partyAgentSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** POST /api/party/new (admins): a fresh party agent replaces the current one. */
export function useStartPartyAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch('/api/party/new', { method: 'POST', schema: partyAgentSchema }),
    onSuccess: (party) => queryClient.setQueryData(queryKeys.party, party),
  });
}
