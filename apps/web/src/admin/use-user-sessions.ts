import { adminUserSessionsSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** How many of a user's newest tracked events the lead info dialog shows. */
export const RECENT_EVENTS = 20;

/** A user's newest tracked session events (GET /api/admin/user-sessions?user_id=). */
export function useUserSessions(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.adminUserSessions(userId ?? ''),
    queryFn: () =>
      apiFetch(
        `/api/admin/user-sessions?${new URLSearchParams({ user_id: userId!, rows_per_page: String(RECENT_EVENTS) })}`,
        { schema: adminUserSessionsSchema },
      ),
    enabled: userId !== null,
  });
}
