import { autoFillStateSchema } from '@tandem/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';
import { installationHeaders } from './installation-headers';

export function useAutoFill(installationId: number) {
  return useQuery({
    queryKey: queryKeys.autoFill(installationId),
    queryFn: () =>
      apiFetch('/api/billing/auto-fill', {
        schema: autoFillStateSchema,
        headers: installationHeaders(installationId),
      }),
  });
}
