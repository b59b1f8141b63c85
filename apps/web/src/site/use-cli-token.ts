import { cliTokenResponseSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** POST /api/auth/cli-token once for the signed-in user (issuing a token is not repeated). */
export function useCliToken(userId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.cliToken(userId),
    queryFn: () => apiFetch('/api/auth/cli-token', { method: 'POST', schema: cliTokenResponseSchema }),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
