import { statusOf, type GitHubClient } from '@tandem/github';
import { readInside, WorkspacePathError } from '../sandbox/safe-fs.js';

/** Where a repository keeps its instructions for agents (docs: behavior/readme). */
export const INSTRUCTIONS_FILE = '.tandem/README.md';
/** Enough for a page of notes; every line is part of every model call's context. */
export const MAX_INSTRUCTIONS_BYTES = 16 * 1024;

const TOO_LARGE = `(${INSTRUCTIONS_FILE} is larger than ${MAX_INSTRUCTIONS_BYTES / 1024} KB; read it with view_files.)`;

/** The file's bytes as the model sees them; both readers below go through here. */
function instructionsFrom(bytes: Buffer): string | null {
  const text = bytes.toString('utf8').replace(/\0/g, '').trim();
  return text || null;
}

/**
 * The repository's instructions, read from the agent's checkout at the start of a run. The file is
 * the repository's (hostile) content: it is read inside the workspace only, never through a
 * symlink, and bounded; anything odd (a link, a directory, unreadable) reads as no instructions.
 */
export async function readRepoInstructions(workspaceDir: string): Promise<string | null> {
  try {
    const entry = await readInside(workspaceDir, INSTRUCTIONS_FILE, { maxBytes: MAX_INSTRUCTIONS_BYTES });
    if (entry.kind !== 'file') return null;
    return instructionsFrom(entry.bytes);
  } catch (error) {
    if (!(error instanceof WorkspacePathError)) throw error;
    if (/too large/.test(error.message)) return TOO_LARGE;
    return null;
  }
}

/**
 * The same instructions read through the code host's contents API at `ref`, for a run whose clone
 * is not there yet (a fresh checkout of `ref` holds exactly this file). Same rules as the checkout:
 * a directory, a symlink (GitHub reports one as `symlink`, or answers with its target's path) or a
 * submodule reads as none, and the size cap holds. `undefined` when the answer cannot be trusted
 * to match the checkout (an error, an unexpected shape): the caller then reads the clone.
 */
export async function readRepoInstructionsAt(
  octokit: GitHubClient,
  at: { owner: string; repo: string; ref: string },
): Promise<string | null | undefined> {
  let data;
  try {
    ({ data } = await octokit.rest.repos.getContent({
      owner: at.owner,
      repo: at.repo,
      path: INSTRUCTIONS_FILE,
      ref: at.ref,
    }));
  } catch (error) {
    return statusOf(error) === 404 ? null : undefined;
  }
  if (Array.isArray(data) || data.type !== 'file' || data.path !== INSTRUCTIONS_FILE) return null;
  if (data.size > MAX_INSTRUCTIONS_BYTES) return TOO_LARGE;
  if (!('content' in data) || data.encoding !== 'base64') return undefined;
  const bytes = Buffer.from(data.content, 'base64');
  if (bytes.length !== data.size) return undefined;
  return instructionsFrom(bytes);
}
