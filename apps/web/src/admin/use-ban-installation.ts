import { installationBannedSchema, type BanInstallation } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** Bans an installation or lifts its ban, then refreshes the admin table. */
export function useBanInstallation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: BanInstallation) =>
      apiFetch('/api/admin/ban-installation', {
        method: 'POST',
        body: change,
        schema: installationBannedSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminInstallationsAll }),
  });
}
