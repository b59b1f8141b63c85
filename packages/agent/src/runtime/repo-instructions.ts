import { readInside, WorkspacePathError } from '../sandbox/safe-fs.js';

/** Where a repository keeps its instructions for agents (docs: behavior/readme). */
export const INSTRUCTIONS_FILE = '.tandem/README.md';
/** Enough for a page of notes; every line is part of every model call's context. */
export const MAX_INSTRUCTIONS_BYTES = 16 * 1024;

/**
 * The repository's instructions, read from the agent's checkout at the start of a run. The file is
 * the repository's (hostile) content: it is read inside the workspace only, never through a
 * symlink, and bounded; anything odd (a link, a directory, unreadable) reads as no instructions.
 */
export async function readRepoInstructions(workspaceDir: string): Promise<string | null> {
  try {
    const entry = await readInside(workspaceDir, INSTRUCTIONS_FILE, { maxBytes: MAX_INSTRUCTIONS_BYTES });
    if (entry.kind !== 'file') return null;
    const text = entry.bytes.toString('utf8').replace(/\0/g, '').trim();
    return text || null;
  } catch (error) {
    if (!(error instanceof WorkspacePathError)) throw error;
    if (/too large/.test(error.message))
      return `(${INSTRUCTIONS_FILE} is larger than ${MAX_INSTRUCTIONS_BYTES / 1024} KB; read it with view_files.)`;
    return null;
  }
}
