import type { GitHubClient } from '../client.js';
import type { FileReadResult } from '../schemas.js';
import { statusOf, type RepoRef } from './repo-ref.js';

/** Past this we neither ship a file to a browser nor give it to a model. */
export const MAX_FILE_BYTES = 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A file's text at a ref (the default branch without one), or why there is none. GitHub sends
 * files over 1 MB with no content (`encoding: 'none'`) and refuses those over 100 MB with a 403
 * `too_large` error; both, and anything over our own 1 MB cap, read as too large.
 */
export async function readFile(
  octokit: GitHubClient,
  at: RepoRef & { path: string; ref?: string | undefined },
): Promise<FileReadResult> {
  let data;
  try {
    ({ data } = await octokit.rest.repos.getContent({
      owner: at.owner,
      repo: at.repo,
      path: at.path,
      ...(at.ref ? { ref: at.ref } : {}),
    }));
  } catch (error) {
    const httpStatus = statusOf(error);
    if (httpStatus === 404) return { status: 'not_found', contents: '' };
    if (httpStatus === 403 && hasErrorCode(error, 'too_large')) return { status: 'too_large' };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'error', message, ...(httpStatus ? { httpStatus } : {}) };
  }
  if (Array.isArray(data)) return { status: 'error', message: `${at.path} is a directory` };
  if (data.type !== 'file') return { status: 'error', message: `${at.path} is a ${data.type}, not a file` };
  if (data.size > MAX_FILE_BYTES || data.encoding === 'none' || !('content' in data))
    return { status: 'too_large' };
  if (data.encoding !== 'base64') return { status: 'error', message: `Unexpected encoding ${data.encoding}` };
  const bytes = Buffer.from(data.content, 'base64');
  if (bytes.length > MAX_FILE_BYTES) return { status: 'too_large' };
  // Text is valid UTF-8 without NUL bytes; anything else is shown as a binary file.
  if (bytes.includes(0)) return { status: 'binary' };
  try {
    return { status: 'ok', contents: utf8.decode(bytes) };
  } catch {
    return { status: 'binary' };
  }
}

function hasErrorCode(error: unknown, code: string): boolean {
  const errors = (error as { response?: { data?: { errors?: unknown } } }).response?.data?.errors;
  return Array.isArray(errors) && errors.some((e) => (e as { code?: unknown } | null)?.code === code);
}
