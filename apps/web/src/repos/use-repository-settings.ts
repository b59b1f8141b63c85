import { repositorySettingsSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { repoApiPath } from './repo-path';

/**
 * A repository's settings (platform §3). The new-agent form asks only for known repositories
 * (`enabled`) and treats them as `optional`: a failure just leaves the other defaults in place, so
 * it is not retried.
 */
export function useRepositorySettings(
  fullName: string,
  options: { enabled?: boolean; optional?: boolean } = {},
) {
  return useQuery({
    queryKey: queryKeys.repositorySettings(fullName),
    queryFn: ({ signal }) =>
      apiFetch(`/api/settings/repository/${repoApiPath(fullName)}`, {
        schema: repositorySettingsSchema,
        signal,
      }),
    retry: options.optional ? false : retryUnlessClientError,
    enabled: options.enabled ?? true,
    staleTime: options.optional ? 60_000 : 0,
  });
}
