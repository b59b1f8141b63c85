import { generateScriptsResponseSchema } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { repoApiPath } from './repo-path';

/** POST /api/repositories/{owner}/{repo}/generate-scripts: starts the agent that writes them. */
export function useGenerateScripts(fullName: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch(`/api/repositories/${repoApiPath(fullName)}/generate-scripts`, {
        method: 'POST',
        schema: generateScriptsResponseSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.repositoryScripts(fullName) }),
  });
}
