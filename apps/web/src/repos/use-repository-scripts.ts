import { repositoryScriptsSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { repoApiPath } from './repo-path';

/** Platform §4: while a script-generation agent works, the scripts are read again every 5 s. */
export const GENERATING_POLL_MS = 5000;

/** GET /api/repositories/{owner}/{repo}/scripts (product admins). */
export function useRepositoryScripts(fullName: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.repositoryScripts(fullName),
    queryFn: ({ signal }) =>
      apiFetch(`/api/repositories/${repoApiPath(fullName)}/scripts`, {
        schema: repositoryScriptsSchema,
        signal,
      }),
    enabled,
    retry: retryUnlessClientError,
    refetchInterval: (query) => (query.state.data?.agent_ids.length ? GENERATING_POLL_MS : false),
  });
}
