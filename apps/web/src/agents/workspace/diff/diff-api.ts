import { agentBranchResponseSchema, agentDiffResponseSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../api/client';
import type { CommitRange } from './range';
import { queryKeys } from '../../../api/query-keys';
import { useReaderHeaders } from '../reader-auth';

/** Commits arrive while the agent works: the branch is read again this often while the window is open. */
export const BRANCH_POLL_MS = 10_000;

const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;
/** A 404 (the subscription is gone) is final; other failures are retried twice. */
const retry = (failures: number, error: Error) => !notFound(error) && failures < 2;

export const isSubscriptionGone = notFound;

export function useAgentBranch(agentId: string, sourceId: string | null) {
  const headers = useReaderHeaders();
  return useQuery({
    queryKey: queryKeys.agentBranch(agentId, sourceId),
    queryFn: () => {
      const params = new URLSearchParams({ trajectory_id: agentId, source_id: sourceId ?? '' });
      return apiFetch(`/api/agent/branch?${params.toString()}`, {
        schema: agentBranchResponseSchema,
        headers,
      });
    },
    enabled: sourceId !== null,
    refetchInterval: BRANCH_POLL_MS,
    retry,
  });
}

/** The files two commits apart; null range means nothing to ask for. */
export function useAgentDiff(agentId: string, sourceId: string | null, range: CommitRange | null) {
  const headers = useReaderHeaders();
  return useQuery({
    queryKey: queryKeys.agentDiff(agentId, sourceId, range?.from ?? null, range?.to ?? null),
    queryFn: () => {
      const params = new URLSearchParams({
        trajectory_id: agentId,
        source_id: sourceId ?? '',
        from: range?.from ?? '',
        to: range?.to ?? '',
      });
      return apiFetch(`/api/agent/diff?${params.toString()}`, { schema: agentDiffResponseSchema, headers });
    },
    enabled: sourceId !== null && range !== null,
    // Two commits always differ the same way.
    staleTime: Infinity,
    retry,
  });
}
