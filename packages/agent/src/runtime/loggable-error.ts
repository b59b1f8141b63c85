import type { Scrubber } from '../sandbox/index.js';

/**
 * An error as the logs may show it: message and stack scrubbed (a failing command or git call can
 * quote a secret), its other properties (request bodies, responses, query parameters) left out.
 */
export function loggableError(error: unknown, scrub: Scrubber): Error {
  if (!(error instanceof Error)) return new Error(scrub(String(error)));
  const copy = new Error(scrub(error.message));
  copy.name = error.name;
  copy.stack = error.stack ? scrub(error.stack) : copy.stack;
  return copy;
}
