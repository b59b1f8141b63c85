import { secretListSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { repoApiPath } from './repo-path';

/** The repository's secret names (never their values). */
export function useSecrets(fullName: string) {
  return useQuery({
    queryKey: queryKeys.repositorySecrets(fullName),
    queryFn: ({ signal }) =>
      apiFetch(`/api/secrets/${repoApiPath(fullName)}/get-secrets`, { schema: secretListSchema, signal }),
    retry: retryUnlessClientError,
  });
}
