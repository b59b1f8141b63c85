import { statusCountsSchema, successResponseSchema } from '@tandem/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';
import { usePageVisible } from '../lib/visibility';
import { queryKeys } from '../api/query-keys';

/** Agent status polling (platform §9): every 3 s while the tab is visible, 15 s while hidden. */
export const STATUS_POLL_VISIBLE_MS = 3000;
export const STATUS_POLL_HIDDEN_MS = 15_000;
export const BADGE_CAP = 20;

export const statusCountsKey = queryKeys.statusCounts;

/** '20+' past the cap (platform §2). */
export function badgeLabel(count: number): string {
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(count);
}

export function useStatusCounts(enabled: boolean) {
  const visible = usePageVisible();
  return useQuery({
    queryKey: statusCountsKey,
    queryFn: () => apiFetch('/api/agents/status-counts', { schema: statusCountsSchema }),
    enabled,
    refetchInterval: visible ? STATUS_POLL_VISIBLE_MS : STATUS_POLL_HIDDEN_MS,
    refetchIntervalInBackground: true,
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await apiFetch('/api/agent/mark-all-read', { method: 'POST', schema: successResponseSchema });
    await queryClient.invalidateQueries({ queryKey: statusCountsKey });
  }, [queryClient]);
}
