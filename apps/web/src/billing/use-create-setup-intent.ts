import { setupIntentSchema } from '@tandem/shared';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { installationHeaders } from './installation-headers';

/** A setup for a new card; the browser confirms it with Stripe (or the local stand-in). */
export function useCreateSetupIntent(installationId: number) {
  return useMutation({
    mutationFn: () =>
      apiFetch('/api/billing/setup-intent', {
        method: 'POST',
        schema: setupIntentSchema,
        headers: installationHeaders(installationId),
      }),
  });
}
