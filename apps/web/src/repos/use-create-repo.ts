import { createRepoResponseSchema, INSTALLATION_HEADER } from '@tandem/shared';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';

/** POST /api/installation/create-repo, in the given installation (else the active one). */
export function useCreateRepo(installationId: number | null | undefined) {
  return useCallback(
    (repo: { repo_name: string; description: string; private: boolean }) =>
      apiFetch('/api/installation/create-repo', {
        method: 'POST',
        body: repo,
        schema: createRepoResponseSchema,
        headers: installationId ? { [INSTALLATION_HEADER]: String(installationId) } : {},
      }),
    [installationId],
  );
}
