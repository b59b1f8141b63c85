import {
  repositorySettingsSchema,
  type RepositorySettings,
  type UpdateRepositorySettings,
} from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { repoApiPath } from './repo-path';

/**
 * Changes one repository setting (the API takes a single field). The page shows the change at once
 * and puts the old value back if the server refuses it.
 */
export function useUpdateRepositorySettings(fullName: string) {
  const queryClient = useQueryClient();
  const key = queryKeys.repositorySettings(fullName);
  return useMutation({
    mutationFn: (change: UpdateRepositorySettings) =>
      apiFetch(`/api/settings/repository/${repoApiPath(fullName)}`, {
        method: 'PATCH',
        body: change,
        schema: repositorySettingsSchema,
      }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<RepositorySettings>(key);
      if (previous) queryClient.setQueryData<RepositorySettings>(key, { ...previous, ...change });
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (settings) => queryClient.setQueryData(key, settings),
  });
}
