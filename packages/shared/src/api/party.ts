import { z } from 'zod';
import { imageAttachmentSchema, reviewCommentSchema } from './agents.js';
import { userText } from './text.js';

/**
 * The public party agent at /party (platform §2, §4, §6, §7; workspace §2, §6): one shared agent
 * per deployment on the operator's repository (TANDEM_PARTY_REPO) that anyone may chat with.
 */

/** GET /api/party/ (and the page) when the operator has not set TANDEM_PARTY_REPO. */
export const PARTY_OFF_MESSAGE = 'There is no party agent on this deployment.';
/** GET /api/party/ when no party agent exists and nobody could start one yet. */
export const PARTY_NOT_STARTED_MESSAGE =
  'The party agent has not been started yet. An admin can start it from this page.';
export const PARTY_DAILY_CAP_MESSAGE =
  "The party agent has used today's credits. It takes messages again after midnight UTC.";
export const PARTY_LEAD_MESSAGE =
  'This visitor id does not belong to this browser. Reload the page and try again.';
export const PARTY_IMAGES_MESSAGE = 'The party agent takes text messages only.';

/** Longest message the schema lets through; the operator's own cap (usually lower) applies after. */
export const PARTY_MESSAGE_HARD_MAX_CHARS = 20_000;

export function partyTooLongMessage(maxChars: number): string {
  return `Party messages are limited to ${maxChars} characters.`;
}

export function partyRateLimitMessage(scope: 'visitor' | 'network', perMinute: number, retrySeconds: number) {
  const who = scope === 'visitor' ? 'each visitor' : 'each network address';
  return `Slow down: the party agent takes ${perMinute} messages a minute from ${who}. Try again in ${retrySeconds} s.`;
}

/**
 * A lead id as track-visit hands them out (a UUID). Anything else is refused before it is
 * compared, logged or stored.
 */
export const leadIdSchema = z.string().uuid('Invalid visitor id');

/** POST /api/party/message: the agent message payload (workspace §7) plus the sender's lead id. */
export const partyMessageSchema = z.object({
  message: userText(
    z.string().max(PARTY_MESSAGE_HARD_MAX_CHARS, partyTooLongMessage(PARTY_MESSAGE_HARD_MAX_CHARS)),
  ),
  images: z.array(imageAttachmentSchema).max(0, PARTY_IMAGES_MESSAGE).default([]),
  comments: z.array(reviewCommentSchema).max(0, PARTY_IMAGES_MESSAGE).default([]),
  /** Anonymous senders only; a signed-in sender is known by their session. */
  lead_id: leadIdSchema.nullish(),
});
export type PartyMessage = z.infer<typeof partyMessageSchema>;

/** GET /api/party/: the current party agent, enough for the workspace to load it. */
export const partyAgentSchema = z.object({
  agent_id: z.string(),
  repo_name: z.string(),
  title: z.string(),
  /** The operator's caps, so the page can say them before a message is refused. */
  max_message_chars: z.number().int(),
  messages_per_minute: z.number().int(),
});
export type PartyAgent = z.infer<typeof partyAgentSchema>;

/** GET /api/temp-auth-token?party=true */
export const partyTokenQuerySchema = z.object({ party: z.enum(['true', 'false']).optional() });

/** The name an anonymous sender is shown under (workspace §6): 'anon' and the lead's first 6 characters. */
export function anonymousName(leadId: string | null | undefined): string {
  return leadId ? `anon-${leadId.slice(0, 6)}` : 'anon';
}
