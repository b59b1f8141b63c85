import { repositoryAccessSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { repoApiPath } from './repo-path';

/** The viewer's access level on a repository (platform §6); a 404 means none at all. */
export function useRepositoryAccess(fullName: string) {
  return useQuery({
    queryKey: queryKeys.repositoryAccess(fullName),
    queryFn: ({ signal }) =>
      apiFetch(`/api/repositories/${repoApiPath(fullName)}/access`, {
        schema: repositoryAccessSchema,
        signal,
      }),
    retry: retryUnlessClientError,
    // The server caches the code host's answer for a minute; asking more often gains nothing.
    staleTime: 60_000,
  });
}
