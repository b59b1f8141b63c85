import { z } from 'zod';
import { apiTimestampSchema } from './timestamp.js';

/** Limits are exclusive: the spec says "under" (platform §5, §9). */
export const SECRET_KEY_MAX_CHARS = 10_000;
export const SECRET_VALUE_MAX_CHARS = 10_100;

/**
 * Secret values shorter than this are scrubbed from agent output only as whole tokens (`a1` is
 * masked in `key=a1` but not in `data1`), and they may still collide with ordinary words: the
 * spec asks the user to confirm such a value (platform §5). The agent's scrubber uses the same rule.
 */
export const SECRET_SCRUB_SAFE_LENGTH = 6;

/** Detail texts of the HTTP 400s the secrets API answers (platform §5). */
export const SECRET_MESSAGES = {
  invalidName: 'Invalid Environment Variable Name',
  duplicate: 'A secret with that name already exists',
  emptyValue: 'Secret value cannot be empty',
  longValue: `Secret value must be under ${SECRET_VALUE_MAX_CHARS} characters`,
  notFound: 'Secret not found',
  writeNeeded: 'You need write access to this repository to manage its secrets.',
} as const;

/** Names are case-insensitive for the user: the server upper-cases before it validates or looks up. */
export const normalizeSecretKey = (key: string): string => key.toUpperCase();

/**
 * Secret name rule for an already upper-cased key; null when it is fine. `\w` without the `u`
 * flag is ASCII-only, so any character a shell would not accept in a variable name fails.
 */
export function secretKeyError(key: string): string | null {
  const ok = key.length > 0 && key.length < SECRET_KEY_MAX_CHARS && /^[A-Z_][A-Z0-9_]*$/.test(key);
  return ok ? null : SECRET_MESSAGES.invalidName;
}

/**
 * Secret value rule; null when it is fine. Blank values count as empty: agent output is scrubbed of
 * secret values, and scrubbing whitespace would mangle every log.
 */
export function secretValueError(value: string): string | null {
  if (!value.trim()) return SECRET_MESSAGES.emptyValue;
  if ([...value].length >= SECRET_VALUE_MAX_CHARS) return SECRET_MESSAGES.longValue;
  return null;
}

// Bodies only check types (422); the name and value rules answer 400 with the spec's texts.
/** POST /api/secrets/{repo_owner}/{repo_name}/add-secret */
export const addSecretSchema = z.object({ key: z.string(), value: z.string() });
export type AddSecretRequest = z.infer<typeof addSecretSchema>;

/** POST /api/secrets/{repo_owner}/{repo_name}/delete-secret */
export const deleteSecretSchema = z.object({ key: z.string() });
export type DeleteSecretRequest = z.infer<typeof deleteSecretSchema>;

/** A secret as the API shows it: never its value (platform §3). */
export const secretSchema = z.object({ key: z.string(), created_at: apiTimestampSchema });
export type Secret = z.infer<typeof secretSchema>;

/** GET /api/secrets/{repo_owner}/{repo_name}/get-secrets, sorted by key. */
export const secretListSchema = z.object({ secrets: z.array(secretSchema) });
export type SecretList = z.infer<typeof secretListSchema>;

/** add-secret answers with the stored secret, so the client sees the upper-cased name. */
export const addSecretResponseSchema = secretSchema;
export const deleteSecretResponseSchema = z.object({ success: z.boolean() });
