import { agentMetadataSchema } from '@tandem/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

export type AgentSetting = 'update-model' | 'update-review-model' | 'update-summarization-limit';

/**
 * PUT /api/agent/{update-model|update-review-model|update-summarization-limit}: the answer is the
 * agent's new metadata, which replaces the cached copy at once. Errors reach the caller.
 */
export function useUpdateAgentSetting(agentId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    async (setting: AgentSetting, body: Record<string, unknown>) => {
      const updated = await apiFetch(`/api/agent/${setting}`, {
        method: 'PUT',
        body: { trajectory_id: agentId, ...body },
        schema: agentMetadataSchema,
      });
      queryClient.setQueryData(queryKeys.agentMetadata(agentId), updated);
      return updated;
    },
    [agentId, queryClient],
  );
}
