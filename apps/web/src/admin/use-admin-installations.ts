import { adminInstallationListSchema, type AdminInstallationsRequest } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The admin installations table (GET /api/admin/installations); product admins only. */
export function useAdminInstallations(query: AdminInstallationsRequest) {
  return useQuery({
    queryKey: queryKeys.adminInstallations(query),
    queryFn: () => {
      const params = new URLSearchParams({
        page: String(query.page),
        rows_per_page: String(query.rows_per_page),
        sort_by: query.sort_by,
        descending: String(query.descending),
        search: query.search,
      });
      return apiFetch(`/api/admin/installations?${params}`, { schema: adminInstallationListSchema });
    },
    // The table keeps its rows while the next page or search loads.
    placeholderData: keepPreviousData,
  });
}
