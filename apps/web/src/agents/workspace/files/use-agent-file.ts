import { agentFileResponseSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/query-keys';
import { retryUnlessClientError } from '../../../api/retry';
import { agentFileUrl, looksLikeSha } from './file-view-model';
import { useReaderHeaders } from '../reader-auth';

/** GET /api/agent/file: one file of the agent's repository at a ref (the branch when null). */
export function useAgentFile(agentId: string, repositoryName: string, path: string, ref: string | null) {
  const headers = useReaderHeaders();
  return useQuery({
    queryKey: queryKeys.agentFile(agentId, repositoryName, path, ref),
    queryFn: ({ signal }) =>
      apiFetch(agentFileUrl(agentId, repositoryName, path, ref), {
        schema: agentFileResponseSchema,
        signal,
        headers,
      }),
    retry: retryUnlessClientError,
    // A file at a commit never changes; at a branch it may, so it is read again after a while.
    staleTime: ref && looksLikeSha(ref) ? Infinity : 30_000,
  });
}
