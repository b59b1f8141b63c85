import { userSettingsSchema, type UpdateUserSettings, type UserSettings } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/**
 * Changes a toggle optimistically (platform §4): the switch moves at once and moves back if the
 * server refuses.
 */
export function useUpdateUserSettings(options: { onError?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateUserSettings) =>
      apiFetch('/api/settings/user', { method: 'PATCH', body: change, schema: userSettingsSchema }),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.userSettings });
      const previous = queryClient.getQueryData<UserSettings>(queryKeys.userSettings);
      if (previous)
        queryClient.setQueryData<UserSettings>(queryKeys.userSettings, { ...previous, ...change });
      return { previous };
    },
    onError: (_error, _change, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.userSettings, context.previous);
      options.onError?.();
    },
    onSuccess: (stored) => queryClient.setQueryData(queryKeys.userSettings, stored),
  });
}
