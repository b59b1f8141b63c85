import { repositorySettingsSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { repoApiPath } from './repo-path';

/** A repository's settings (platform §3); `enabled` lets the new-agent form ask only for known repositories. */
export function useRepositorySettings(fullName: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.repositorySettings(fullName),
    queryFn: ({ signal }) =>
      apiFetch(`/api/settings/repository/${repoApiPath(fullName)}`, {
        schema: repositorySettingsSchema,
        signal,
      }),
    retry: retryUnlessClientError,
    enabled: options.enabled ?? true,
  });
}
