import { addSecretResponseSchema, type AddSecretRequest } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { repoApiPath } from './repo-path';

export function useAddSecret(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (secret: AddSecretRequest) =>
      apiFetch(`/api/secrets/${repoApiPath(fullName)}/add-secret`, {
        method: 'POST',
        body: secret,
        schema: addSecretResponseSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.repositorySecrets(fullName) }),
  });
}
