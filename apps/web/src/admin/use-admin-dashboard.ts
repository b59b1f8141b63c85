import { adminDashboardSchema, type AdminDashboardRange } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The admin dashboard's figures (GET /api/admin/admin_dashboard) for the last `days` days. */
export function useAdminDashboard(days: AdminDashboardRange) {
  return useQuery({
    queryKey: queryKeys.adminDashboard(days),
    queryFn: () => apiFetch(`/api/admin/admin_dashboard?days=${days}`, { schema: adminDashboardSchema }),
    // The charts keep their figures while another range loads.
    placeholderData: keepPreviousData,
  });
}
