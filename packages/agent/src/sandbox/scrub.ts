export type Scrubber = (text: string) => string;

export const REDACTED = '[REDACTED]';

/** Shorter values ('1', 'true', 'dev') would shred ordinary output while protecting nothing. */
const MIN_SECRET_LENGTH = 4;

// scheme://user:password@ — the password part is masked whatever it is, so tokens we were never
// told about (e.g. typed by the agent into a git remote) do not leak either.
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@'"`]+:)([^\s/?#@'"`]+)@/gi;

/**
 * Masks known secret values and URL credentials. Longest secrets go first so a secret that contains
 * another one is masked whole rather than leaving its remainder visible.
 */
export function createScrubber(secrets: readonly string[]): Scrubber {
  // Values pasted into a settings form often carry a trailing newline the output never shows.
  const values = [...new Set(secrets.flatMap((value) => [value, value.trim()]))]
    .filter((value) => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text: string): string => {
    let result = text;
    for (const value of values) {
      if (result.includes(value)) result = result.split(value).join(REDACTED);
    }
    return result.replace(URL_CREDENTIALS, `$1${REDACTED}@`);
  };
}
