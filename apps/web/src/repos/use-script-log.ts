import { scriptLogSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { RUNNING_LOG_POLL_MS } from '../agents/workspace/logs/log-view-model';

/** One script log; read again while the script still runs. */
export function useScriptLog(logId: string) {
  return useQuery({
    queryKey: queryKeys.scriptLog(logId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/scripts/log/${encodeURIComponent(logId)}`, { schema: scriptLogSchema, signal }),
    retry: retryUnlessClientError,
    refetchInterval: (query) => (query.state.data?.status_code === null ? RUNNING_LOG_POLL_MS : false),
  });
}
