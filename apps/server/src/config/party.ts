import { z } from 'zod';

/** The party agent's settings (TANDEM_PARTY_*); null when TANDEM_PARTY_REPO is unset (party off). */
export interface PartySettings {
  /** "owner/name" of the repository the party agent works on; its installation pays. */
  repo: string;
  /** Model key for new party agents; null: the repository's default, else the server's. */
  model: string | null;
  /** Credits (cents) all party agents may spend per UTC day before they stop taking messages. */
  dailyCredits: number;
  /** Messages a minute from one visitor (lead, or signed-in user). */
  messagesPerMinute: number;
  /** Messages a minute from one client IP, whoever they claim to be. */
  ipMessagesPerMinute: number;
  /** Longest message, in characters. */
  maxMessageChars: number;
}

const wholeNumber = (fallback: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .default(fallback)
    .refine(
      (v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max,
      `must be a whole number from ${min} to ${max}`,
    )
    .transform(Number);

export const partyEnv = {
  TANDEM_PARTY_REPO: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/.test(v),
      'must be a repository as owner/name',
    ),
  TANDEM_PARTY_MODEL: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
  TANDEM_PARTY_DAILY_CREDITS: wholeNumber('500', 0, 10_000_000),
  TANDEM_PARTY_MESSAGES_PER_MINUTE: wholeNumber('6', 1, 10_000),
  TANDEM_PARTY_IP_MESSAGES_PER_MINUTE: wholeNumber('20', 1, 100_000),
  TANDEM_PARTY_MAX_MESSAGE_CHARS: wholeNumber('4000', 1, 20_000),
};

export function parseParty(e: {
  TANDEM_PARTY_REPO?: string | undefined;
  TANDEM_PARTY_MODEL?: string | undefined;
  TANDEM_PARTY_DAILY_CREDITS: number;
  TANDEM_PARTY_MESSAGES_PER_MINUTE: number;
  TANDEM_PARTY_IP_MESSAGES_PER_MINUTE: number;
  TANDEM_PARTY_MAX_MESSAGE_CHARS: number;
}): PartySettings | null {
  if (!e.TANDEM_PARTY_REPO) return null;
  return {
    repo: e.TANDEM_PARTY_REPO,
    model: e.TANDEM_PARTY_MODEL ?? null,
    dailyCredits: e.TANDEM_PARTY_DAILY_CREDITS,
    messagesPerMinute: e.TANDEM_PARTY_MESSAGES_PER_MINUTE,
    ipMessagesPerMinute: e.TANDEM_PARTY_IP_MESSAGES_PER_MINUTE,
    maxMessageChars: e.TANDEM_PARTY_MAX_MESSAGE_CHARS,
  };
}
