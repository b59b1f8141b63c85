import { z } from 'zod';
import { apiTimestampSchema } from './timestamp.js';
import { userText } from './text.js';

/** Loose on purpose: the address is for a human to reply to, not for routing mail here. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const DEMO_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
} as const;

/** The demo form's email rule: the message the dialog shows, or null when it is fine. */
export function demoEmailError(email: string): string | null {
  const trimmed = email.trim();
  if (!trimmed) return DEMO_MESSAGES.emailRequired;
  if (!EMAIL_PATTERN.test(trimmed)) return DEMO_MESSAGES.emailInvalid;
  return null;
}

/** POST /api/demo/request */
export const demoRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, DEMO_MESSAGES.emailRequired)
    .max(320)
    .regex(EMAIL_PATTERN, DEMO_MESSAGES.emailInvalid),
  message: userText(z.string().max(10_000)).default(''),
  lead_id: z.string().max(200).nullish(),
});
export type DemoRequest = z.input<typeof demoRequestSchema>;

export const successResponseSchema = z.object({ success: z.boolean() });

export const demoRequestRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  message: z.string(),
  lead_id: z.string().nullable(),
  created_at: apiTimestampSchema,
});
export const demoRequestListSchema = z.object({ requests: z.array(demoRequestRowSchema), count: z.number() });
