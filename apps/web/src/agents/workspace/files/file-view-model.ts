import { ApiError } from '../../../api/client';

/**
 * The spec's file-fetch messages (workspace §8), by the HTTP status the server answered with.
 * Status 0 (no answer at all) and every other status read as the unknown error.
 */
export function fileFetchErrorMessage(status: number, loggedIn: boolean): string {
  switch (status) {
    case 429:
      return loggedIn
        ? 'Request rate limit reached. Please try again later.'
        : 'Request rate limit reached. Please login to increase your limits.';
    case 401:
      return 'You must be logged in to view this file.';
    case 403:
      return 'You do not have permission to view this file. Ask the owner of the github repository to add you.';
    default:
      return 'There was an unknown error fetching this files contents.';
  }
}

/** The status an error from `apiFetch` carries; anything else counts as no answer (0). */
export const errorStatus = (error: unknown): number => (error instanceof ApiError ? error.status : 0);

/** A ref that names a commit rather than a branch or tag. */
export const looksLikeSha = (ref: string) => /^[0-9a-f]{7,64}$/i.test(ref);

/** A ref as the header shows it: a commit as its 7-character short sha, a branch as itself. */
export const displayRef = (ref: string) => (looksLikeSha(ref) ? ref.slice(0, 7) : ref);

/** The tab title of a file: its base name (the full path is in the window's header). */
export function fileTabTitle(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? path;
}

export function agentFileUrl(agentId: string, repositoryName: string, path: string, ref?: string | null) {
  const params = new URLSearchParams({ trajectory_id: agentId, repository_name: repositoryName, path });
  // Without a ref the server chooses one (the agent's branch); the parameter is optional.
  if (ref) params.set('ref', ref);
  return `/api/agent/file?${params.toString()}`;
}

/** How many lines a text has: a final newline ends the last line rather than starting a new one. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The gutter's text: the numbers 1..count, one a line. */
export function lineNumbers(count: number): string {
  return Array.from({ length: count }, (_, i) => i + 1).join('\n');
}
