import { agentMetadataSchema, type SOURCE_BEHAVIORS } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

export type SourceBehavior = (typeof SOURCE_BEHAVIORS)[number];

/**
 * POST /api/agent/behavior: whether every new comment on a subscribed issue or pull request wakes
 * the agent, or only comments that tag the bot. The answer is the agent's new metadata.
 */
export function useUpdateSourceBehavior(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { sourceId: string; behavior: SourceBehavior }) =>
      apiFetch('/api/agent/behavior', {
        method: 'POST',
        body: { trajectory_id: agentId, source_id: input.sourceId, behavior: input.behavior },
        schema: agentMetadataSchema,
      }),
    onSuccess: (updated) => queryClient.setQueryData(queryKeys.agentMetadata(agentId), updated),
  });
}
