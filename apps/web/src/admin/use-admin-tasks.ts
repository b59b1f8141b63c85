import { adminTaskListSchema, type AdminTasksRequest } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** How often the monitor refreshes: agents change state on their own. */
export const TASKS_POLL_MS = 10_000;

/** The task monitor's table (GET /api/admin/tasks, or /tasks/party); product admins only. */
export function useAdminTasks(query: AdminTasksRequest, party: boolean) {
  return useQuery({
    queryKey: queryKeys.adminTasks(party, query),
    queryFn: () => {
      const params = new URLSearchParams({
        page: String(query.page),
        rows_per_page: String(query.rows_per_page),
        sort_by: query.sort_by,
        descending: String(query.descending),
        status: query.status,
        kind: query.kind,
      });
      return apiFetch(`/api/admin/tasks${party ? '/party' : ''}?${params}`, { schema: adminTaskListSchema });
    },
    placeholderData: keepPreviousData,
    refetchInterval: TASKS_POLL_MS,
  });
}
