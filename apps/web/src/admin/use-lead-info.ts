import { adminLeadInfoSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** How a user arrived (GET /api/admin/user/{user_id}/lead-info); asked only while a dialog shows it. */
export function useLeadInfo(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.adminLeadInfo(userId ?? ''),
    queryFn: () =>
      apiFetch(`/api/admin/user/${encodeURIComponent(userId!)}/lead-info`, { schema: adminLeadInfoSchema }),
    enabled: userId !== null,
  });
}
