import { tempAuthTokenResponseSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The token lives an hour (workspace §7): fetched again well before it runs out. */
const REFRESH_MS = 45 * 60 * 1000;

/**
 * GET /api/temp-auth-token?party=true: the read-only token an anonymous visitor's workspace reads
 * the party agent with. Signed-in viewers read with their session and do not ask.
 */
export function usePartyToken(agentId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.partyToken(agentId),
    // The server names the current party agent; asked again when the page moves to a new one.
    queryFn: () => apiFetch('/api/temp-auth-token?party=true', { schema: tempAuthTokenResponseSchema }),
    enabled,
    staleTime: REFRESH_MS,
    refetchInterval: REFRESH_MS,
    retry: false,
  });
}
