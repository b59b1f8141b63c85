import { userSettingsSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The signed-in user's toggles (GET /api/settings/user). */
export function useUserSettings(enabled = true) {
  return useQuery({
    queryKey: queryKeys.userSettings,
    queryFn: () => apiFetch('/api/settings/user', { schema: userSettingsSchema }),
    enabled,
    staleTime: 60_000,
  });
}
