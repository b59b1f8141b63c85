import { deleteSecretResponseSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { repoApiPath } from './repo-path';

export function useDeleteSecret(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      apiFetch(`/api/secrets/${repoApiPath(fullName)}/delete-secret`, {
        method: 'POST',
        body: { key },
        schema: deleteSecretResponseSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.repositorySecrets(fullName) }),
  });
}
