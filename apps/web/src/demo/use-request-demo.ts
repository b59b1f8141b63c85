import { successResponseSchema } from '@tandem/shared';
import { useCallback } from 'react';
import { apiFetch } from '../api/client';

/** POST /api/demo/request. */
export function useRequestDemo() {
  return useCallback(
    (request: { email: string; message: string; lead_id: string | null }) =>
      apiFetch('/api/demo/request', { method: 'POST', body: request, schema: successResponseSchema }),
    [],
  );
}
