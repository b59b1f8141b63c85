import { z } from 'zod';
import { storableJsonSchema, userText } from './text.js';

export const LEAD_DATA_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'li_fat_id',
  'gclid',
  'landing_variant',
] as const;

/** POST /api/track-visit */
export const trackVisitSchema = z.object({
  lead_id: z.string().max(200).nullish(),
  lead_data: z.record(z.string().max(100), userText(z.string().max(2000))).default({}),
});
export const trackVisitResponseSchema = z.object({ lead_id: z.string() });

export const sessionEventSchema = z.object({
  type: z.enum(['page_view', 'scroll', 'end']),
  /** ms since the epoch, within what a Date (and a timestamptz) can hold */
  timestamp: z.number().int().min(0).max(8.64e15),
  /** Stored as it is (jsonb): refused when Postgres could not store it. */
  data: z.record(z.string(), storableJsonSchema).default({}),
});
export type SessionEvent = z.infer<typeof sessionEventSchema>;

/** POST /api/track-session: `events` is a JSON string, as the browser's beacon sends it. */
export const trackSessionSchema = z.object({
  user_id: z.string().max(100).nullish(),
  lead_id: z.string().max(200).nullish(),
  events: z.string().max(500_000),
});

export const MAX_EVENTS_PER_BATCH = 2000;
