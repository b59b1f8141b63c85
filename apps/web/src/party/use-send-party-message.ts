import { eventUuidResponseSchema, PARTY_LEAD_MESSAGE } from '@tandem/shared';
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../api/client';
import { currentLead, renewLead } from '../tracking/lead';

/**
 * POST /api/party/message. A visitor sends with their lead id (made if none is stored); when the
 * server says the stored lead is not this browser's (its cookie is gone), a new lead is made and
 * the message sent once more. `onLead` hears which lead the message went out under.
 */
export function useSendPartyMessage(options: { signedIn: boolean; onLead: (leadId: string) => void }) {
  const post = (message: string, leadId: string | null) =>
    apiFetch('/api/party/message', {
      method: 'POST',
      body: { message, images: [], comments: [], lead_id: leadId },
      schema: eventUuidResponseSchema,
    });
  return useMutation({
    mutationFn: async (message: string) => {
      if (options.signedIn) return post(message, null);
      const lead = await currentLead();
      options.onLead(lead);
      try {
        return await post(message, lead);
      } catch (error) {
        if (!(
          error instanceof ApiError &&
          error.status === 403 &&
          error.serverMessage === PARTY_LEAD_MESSAGE
        ))
          throw error;
        const renewed = await renewLead();
        options.onLead(renewed);
        return post(message, renewed);
      }
    },
  });
}
