import { INSTALLATION_HEADER, usersTableSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

export const installationHeaders = (installationId: number | null): Record<string, string> =>
  installationId === null ? {} : { [INSTALLATION_HEADER]: String(installationId) };

/** The installation's users table; installation admins only (others are never asked). */
export function useUsersTable(installationId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.usersTable(installationId),
    queryFn: () =>
      apiFetch('/api/settings/users-table', {
        schema: usersTableSchema,
        headers: installationHeaders(installationId),
      }),
    enabled: enabled && installationId !== null,
  });
}
