import { repositoryBranchesSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { splitRepository } from './repositories';

/** GET /api/repositories/{owner}/{repo}/branches, only for a repository the user can reach. */
export function useRepositoryBranches(repository: string | null) {
  return useQuery({
    queryKey: queryKeys.repositoryBranches(repository ?? ''),
    enabled: repository !== null,
    staleTime: 30_000,
    retry: false,
    queryFn: ({ signal }) => {
      const { owner, repo } = splitRepository(repository ?? '');
      return apiFetch(`/api/repositories/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/branches`, {
        schema: repositoryBranchesSchema,
        signal,
      });
    },
  });
}
