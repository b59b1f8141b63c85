import { userSchema } from '@tandem/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/**
 * POST /api/installations/sync: re-reads the user's installations from the code host; the answer
 * replaces the cached user, and a failure makes the cached user read again.
 */
export function useSyncInstallations() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      apiFetch('/api/installations/sync', { method: 'POST', schema: userSchema })
        .then((user) => {
          queryClient.setQueryData(queryKeys.currentUser, user);
        })
        .catch(() => queryClient.invalidateQueries({ queryKey: queryKeys.currentUser })),
    [queryClient],
  );
}
