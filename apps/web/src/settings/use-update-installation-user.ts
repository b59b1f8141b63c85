import { usersTableSchema, type UpdateInstallationUser } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { currentUserKey } from '../auth/current-user';
import { installationHeaders } from './use-users-table';

/** Adds a user, changes a role, or removes a user (role null), then shows the table the server returns. */
export function useUpdateInstallationUser(installationId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: UpdateInstallationUser) =>
      apiFetch('/api/settings/users-table', {
        method: 'PATCH',
        body: change,
        schema: usersTableSchema,
        headers: installationHeaders(installationId),
      }),
    onSuccess: (table) => {
      queryClient.setQueryData(queryKeys.usersTable(installationId), table);
      void queryClient.invalidateQueries({ queryKey: currentUserKey });
    },
  });
}
