import { agentScriptsResponseSchema, successResponseSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/** GET /api/agent/scripts: `.tandem/run`, `run/auto` and `preview` on the agent's branch. */
export function useAgentScripts(agentId: string, branch: string) {
  return useQuery({
    // The branch is in the key: a new branch lists its own scripts.
    queryKey: queryKeys.agentScripts(agentId, branch),
    queryFn: () =>
      apiFetch(`/api/agent/scripts?trajectory_id=${encodeURIComponent(agentId)}`, {
        schema: agentScriptsResponseSchema,
      }),
    staleTime: 30_000,
  });
}

/** POST /api/agent/run-script: starts a script in the agent's sandbox (never wakes the model). */
export function useRunScript(agentId: string) {
  return useCallback(
    (scriptPath: string) =>
      apiFetch('/api/agent/run-script', {
        method: 'POST',
        body: { trajectory_id: agentId, script_path: scriptPath, restart: false },
        schema: successResponseSchema,
      }),
    [agentId],
  );
}
