import { adminUserListSchema, type AdminListQuery } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The admin users table (GET /api/admin/users); product admins only. */
export function useAdminUsers(query: AdminListQuery) {
  return useQuery({
    queryKey: queryKeys.adminUsers(query),
    queryFn: () => {
      const params = new URLSearchParams({
        page: String(query.page),
        rows_per_page: String(query.rows_per_page),
        search: query.search,
      });
      return apiFetch(`/api/admin/users?${params}`, { schema: adminUserListSchema });
    },
    placeholderData: keepPreviousData,
  });
}
