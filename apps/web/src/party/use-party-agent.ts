import { partyAgentSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** GET /api/party/: the current party agent (started by the server on first use). */
export function usePartyAgent() {
  return useQuery({
    queryKey: queryKeys.party,
    queryFn: () => apiFetch('/api/party/', { schema: partyAgentSchema }),
    // A fresh party agent started by an admin elsewhere: everyone moves to it within 15 s.
    refetchInterval: 15_000,
    retry: false,
  });
}
