import { adminRepositoryListSchema, type AdminListQuery } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** Every repository across installations (GET /api/admin/repositories); product admins only. */
export function useAdminRepositories(query: AdminListQuery) {
  return useQuery({
    queryKey: queryKeys.adminRepositories(query),
    queryFn: () => {
      const params = new URLSearchParams({
        page: String(query.page),
        rows_per_page: String(query.rows_per_page),
        search: query.search,
      });
      return apiFetch(`/api/admin/repositories?${params}`, { schema: adminRepositoryListSchema });
    },
    placeholderData: keepPreviousData,
  });
}
