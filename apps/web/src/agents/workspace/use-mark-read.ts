import { successResponseSchema } from '@tandem/shared';
import { useEffect } from 'react';
import { apiFetch } from '../../api/client';

/** POST /api/agent/mark-read whenever the newest item the viewer sees changes. */
export function useMarkRead(agentId: string | undefined, latestTimestamp: string | undefined) {
  useEffect(() => {
    if (!latestTimestamp || !agentId) return;
    void apiFetch(`/api/agent/mark-read?trajectory_id=${encodeURIComponent(agentId)}`, {
      method: 'POST',
      schema: successResponseSchema,
    }).catch(() => undefined);
  }, [agentId, latestTimestamp]);
}
