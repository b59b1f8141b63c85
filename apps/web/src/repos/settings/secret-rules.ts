import {
  normalizeSecretKey,
  SECRET_MESSAGES,
  SECRET_SCRUB_SAFE_LENGTH,
  secretKeyError,
  secretValueError,
  type Secret,
} from '@tandem/shared';

/** Input limits of the add-secret form (platform §5). */
export const SECRET_KEY_INPUT_MAX = 9_999;
export const SECRET_VALUE_INPUT_MAX = 100_000;

export const SECRET_UI_MESSAGES = {
  fetchFailed: 'There was an error fetching the secrets. Please reload or try again later.',
  addFailed: 'There was an error adding your secret. Please try again later.',
  deleteFailed: 'There was an error deleting your secret. Please try again later.',
  shortValue: `This value is shorter than ${SECRET_SCRUB_SAFE_LENGTH} characters. Secret values are scrubbed from everything agents show, so a short value may also hide ordinary text that happens to match it. Add it anyway?`,
} as const;

/** What is wrong with a secret about to be added (name first), or null. */
export function secretProblem(
  key: string,
  value: string,
  existing: readonly Secret[],
): { field: 'key' | 'value'; message: string } | null {
  const name = normalizeSecretKey(key);
  const keyProblem = secretKeyError(name);
  if (keyProblem) return { field: 'key', message: keyProblem };
  if (existing.some((secret) => secret.key === name))
    return { field: 'key', message: SECRET_MESSAGES.duplicate };
  const valueProblem = secretValueError(value);
  return valueProblem ? { field: 'value', message: valueProblem } : null;
}

/** Values this short need the user's confirmation (platform §5). */
export const needsShortValueConfirmation = (value: string) => [...value].length < SECRET_SCRUB_SAFE_LENGTH;
