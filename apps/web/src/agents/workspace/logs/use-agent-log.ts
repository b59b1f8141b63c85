import { agentLogSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';
import { retryUnlessClientError } from '../../../api/retry';
import { agentLogUrl, RUNNING_LOG_POLL_MS } from './log-view-model';
import { useReaderHeaders } from '../reader-auth';

/** GET /api/agent/log: one script run's log, read again while the script runs. */
export function useAgentLog(agentId: string, logId: string) {
  const headers = useReaderHeaders();
  return useQuery({
    queryKey: queryKeys.agentLog(agentId, logId),
    queryFn: ({ signal }) =>
      apiFetch(agentLogUrl(agentId, logId), { schema: agentLogSchema, signal, headers }),
    retry: retryUnlessClientError,
    refetchInterval: (query) => (query.state.data?.status_code === null ? RUNNING_LOG_POLL_MS : false),
  });
}
