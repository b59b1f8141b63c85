import { supervisorListSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { splitRepository } from './repositories';

/** GET /api/agents/supervisors/{owner}/{repo}: supervisors an editor may report to (admins only). */
export function useSupervisors(repository: string | null) {
  return useQuery({
    queryKey: queryKeys.supervisors(repository ?? ''),
    enabled: repository !== null,
    staleTime: 10_000,
    retry: false,
    queryFn: ({ signal }) => {
      const { owner, repo } = splitRepository(repository ?? '');
      return apiFetch(`/api/agents/supervisors/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, {
        schema: supervisorListSchema,
        signal,
      });
    },
  });
}
