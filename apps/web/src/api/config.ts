import { clientConfigSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './client';
import { queryKeys } from './query-keys';

/** Deployment facts (code-host URLs) that do not change while the page is open. */
export function useClientConfig() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: () => apiFetch('/api/config', { schema: clientConfigSchema }),
    staleTime: Infinity,
  });
}
