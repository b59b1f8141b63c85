import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * File access on an agent's workspace from the host (the file tools, repository scripts' contents). They run on the host with the server's privileges, on a
 * tree whose files, directories and links the agent's own processes create and swap at will, so a
 * lexical check of the path is not enough: every component is resolved, symbolic links are followed
 * only while they stay inside the workspace, files with other hard links are refused, and the file
 * actually opened is checked again through /proc/self/fd (a link swapped in after the check is caught,
 * and new files are created through the verified directory's descriptor, never through a path).
 */

/** A path the agent gave (or planted) that must not be used: shown to the model as a tool error. */
export class WorkspacePathError extends Error {}

const { O_RDONLY, O_WRONLY, O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;
const MAX_LINK_HOPS = 40;

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function outside(shown: string): WorkspacePathError {
  return new WorkspacePathError(`${shown} resolves outside the repository`);
}

/** The real path of `rel` under the real root, following only links that stay inside; null parts missing. */
async function resolveInside(
  realRoot: string,
  rel: string,
  shown: string,
): Promise<{ path: string; missing: string[] }> {
  let current = realRoot;
  const parts = rel.split('/').filter((part) => part && part !== '.');
  let hops = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = part === '..' ? resolve(current, '..') : join(current, part);
    if (!isInside(realRoot, next)) throw outside(shown);
    const stat = await lstat(next).catch(() => null);
    if (!stat) return { path: next, missing: parts.slice(i + 1) };
    if (stat.isSymbolicLink()) {
      if (++hops > MAX_LINK_HOPS) throw new WorkspacePathError(`${shown}: too many levels of symbolic links`);
      const target = await readlink(next);
      const real = await realpath(next).catch(() => null);
      // A dangling link is refused too: writing through it would create its target, wherever that is.
      if (!real) {
        const lexical = resolve(current, target);
        if (!isInside(realRoot, lexical)) throw outside(shown);
        throw new WorkspacePathError(`${shown} is a symbolic link to a missing path`);
      }
      if (!isInside(realRoot, real)) throw outside(shown);
      current = real;
      continue;
    }
    current = next;
  }
  return { path: current, missing: [] };
}

async function openedPath(handle: FileHandle): Promise<string> {
  return readlink(`/proc/self/fd/${handle.fd}`);
}

/** Refuses a descriptor that ended up outside the workspace or on something other than `kind`. */
async function verify(
  handle: FileHandle,
  realRoot: string,
  shown: string,
  kind: 'file' | 'directory' | 'any',
): Promise<Stats> {
  const actual = await openedPath(handle);
  if (!isInside(realRoot, actual)) throw outside(shown);
  const stat = await handle.stat();
  if (kind === 'directory' && !stat.isDirectory())
    throw new WorkspacePathError(`${shown} is not a directory`);
  if (kind === 'file' && !stat.isFile()) throw new WorkspacePathError(`${shown} is not a regular file`);
  if (!stat.isFile() && !stat.isDirectory()) throw new WorkspacePathError(`${shown} is not a regular file`);
  // A hard link shares its inode with a file that may live anywhere on the same filesystem.
  if (stat.isFile() && stat.nlink > 1)
    throw new WorkspacePathError(`${shown} has other hard links; refusing to touch it`);
  return stat;
}

/**
 * File-system errors as the model should read them. The tree changes under our feet (the agent's
 * processes run meanwhile), so any step may meet a vanished or swapped entry: that is the model's
 * business, never a failure of the run.
 */
async function asToolError<T>(shown: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof WorkspacePathError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: a component became a link after it was checked; ENXIO: a FIFO nobody reads.
    if (code === 'ELOOP' || code === 'ENXIO') throw outside(shown);
    if (code === 'ENOENT') throw new WorkspacePathError(`${shown} does not exist`);
    if (code === 'ENOTDIR') throw new WorkspacePathError(`${shown} is not a directory`);
    if (code === 'EISDIR') throw new WorkspacePathError(`${shown} is a directory`);
    if (code === 'EACCES' || code === 'EPERM') throw new WorkspacePathError(`${shown}: permission denied`);
    if (typeof code === 'string') throw new WorkspacePathError(`${shown} could not be accessed (${code})`);
    throw error;
  }
}

function openChecked(path: string, flags: number): Promise<FileHandle> {
  return open(path, flags | O_NOFOLLOW | O_NONBLOCK);
}

export type WorkspaceEntry =
  | { kind: 'file'; bytes: Buffer; size: number }
  | { kind: 'directory'; entries: Array<{ name: string; directory: boolean }> };

/** Reads a file (at most maxBytes, else a tool error) or lists a directory, inside the workspace only. */
export function readInside(
  root: string,
  rel: string,
  options: { maxBytes: number; shown?: string },
): Promise<WorkspaceEntry> {
  const shown = options.shown ?? rel;
  return asToolError(shown, () => read(root, rel, shown, options.maxBytes));
}

async function read(root: string, rel: string, shown: string, maxBytes: number): Promise<WorkspaceEntry> {
  const realRoot = await realpath(root);
  const { path, missing } = await resolveInside(realRoot, rel, shown);
  if (missing.length) throw new WorkspacePathError(`${shown} does not exist`);
  const handle = await openChecked(path, O_RDONLY);
  try {
    const stat = await verify(handle, realRoot, shown, 'any');
    if (stat.isDirectory()) {
      const entries = await readdir(`/proc/self/fd/${handle.fd}`, { withFileTypes: true });
      return {
        kind: 'directory',
        entries: entries.map((entry) => ({ name: entry.name, directory: entry.isDirectory() })),
      };
    }
    if (stat.size > maxBytes)
      throw new WorkspacePathError(`${shown} is too large to view (${stat.size} bytes)`);
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes)
      throw new WorkspacePathError(`${shown} is too large to view (more than ${maxBytes} bytes)`);
    return { kind: 'file', bytes: buffer.subarray(0, bytesRead), size: bytesRead };
  } finally {
    await handle.close();
  }
}

/** The current text of a file, or null when it does not exist (a new file). */
export async function readTextIfExists(root: string, rel: string, maxBytes: number): Promise<string | null> {
  try {
    const entry = await readInside(root, rel, { maxBytes });
    if (entry.kind === 'directory') throw new WorkspacePathError(`${rel} is a directory`);
    return entry.bytes.toString('utf8');
  } catch (error) {
    if (error instanceof WorkspacePathError && error.message === `${rel} does not exist`) return null;
    throw error;
  }
}

/** Creates missing directories one at a time under a verified parent, then writes the file. */
export function writeInside(root: string, rel: string, text: string): Promise<void> {
  return asToolError(rel, () => write(root, rel, text));
}

async function write(root: string, rel: string, text: string): Promise<void> {
  const realRoot = await realpath(root);
  const { path, missing } = await resolveInside(realRoot, rel, rel);
  let parent: string;
  let name: string;
  if (missing.length === 0) {
    parent = resolve(path, '..');
    name = path.slice(parent.length + 1);
  } else {
    // `path` is the first missing component; the rest are below it.
    const chain = [path, ...missing.map((_, i) => join(path, ...missing.slice(0, i + 1)))];
    const file = chain.pop()!;
    for (const dir of chain) {
      await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const stat = await lstat(dir);
      if (!stat.isDirectory()) throw outside(rel);
    }
    parent = resolve(file, '..');
    name = file.slice(parent.length + 1);
  }
  if (!name || name === '.' || name === '..') throw new WorkspacePathError(`${rel} is not a file path`);
  const dir = await openChecked(parent, O_RDONLY | O_DIRECTORY);
  try {
    await verify(dir, realRoot, rel, 'directory');
    // Created through the verified directory's descriptor: a parent swapped for a link meanwhile is
    // not followed.
    const handle = await openChecked(`/proc/self/fd/${dir.fd}/${name}`, O_WRONLY | O_CREAT);
    try {
      await verify(handle, realRoot, rel, 'file');
      await handle.truncate(0);
      await handle.write(text, 0, 'utf8');
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}
