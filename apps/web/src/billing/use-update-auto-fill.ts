import { autoFillStateSchema, type AutoFillSettings } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

export function useUpdateAutoFill(installationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: AutoFillSettings) =>
      apiFetch('/api/billing/auto-fill', {
        method: 'POST',
        body: settings,
        schema: autoFillStateSchema,
        headers: installationHeaders(installationId),
      }),
    onSuccess: (state) => {
      queryClient.setQueryData(queryKeys.autoFill(installationId), state);
      // Turned on below the threshold: a top-up may be under way.
      void queryClient.invalidateQueries({ queryKey: queryKeys.credits(installationId) });
    },
  });
}
