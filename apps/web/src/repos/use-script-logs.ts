import { SCRIPT_LOG_PAGE_SIZE, scriptLogListSchema } from '@tandem/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { retryUnlessClientError } from '../api/retry';
import { repoApiPath } from './repo-path';

/** One page (1-based) of the repository's script logs, 25 a page (platform §9). */
export function useScriptLogs(fullName: string, page: number) {
  return useQuery({
    queryKey: queryKeys.repositoryLogs(fullName, page),
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/repositories/${repoApiPath(fullName)}/logs?page=${page}&page_size=${SCRIPT_LOG_PAGE_SIZE}`,
        { schema: scriptLogListSchema, signal },
      ),
    retry: retryUnlessClientError,
    placeholderData: keepPreviousData,
  });
}
