import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isValidBranchName } from '@tandem/shared';
import type { GitResult } from './run-git.js';

/**
 * Branch lookups answered from the bare repository's files, without starting git.
 *
 * Starting a process from the server (hundreds of MB) blocks its event loop for 8-20 ms while
 * libuv forks, and every agent's start asks for its branch, most often one that does not exist
 * yet. So a full branch ref (`refs/heads/<valid name>`) is read the way git's files backend
 * stores it: the loose file first, then packed-refs. Anything this code is not sure to read
 * exactly as git would (other ref forms, symlinks, symbolic refs, reftable, odd contents, errors)
 * answers `git`, and the caller asks git as before.
 *
 * The reads are synchronous on purpose. A lookup of an absent branch takes about twenty lstat calls
 * (six candidate names, each component checked), all of metadata the kernel has cached: a few
 * microseconds each in the calling thread, where each promise-based call costs tens of
 * microseconds of event-loop work around a thread-pool hop (about 3 ms of the server's CPU per
 * agent start with a hundred agents at once, issue 15).
 */

/** How git is run; injectable so tests can count the processes a lookup starts. */
export type GitRunner = (args: string[], options: { cwd: string }) => Promise<GitResult>;

export type FileRef = { kind: 'sha'; sha: string } | { kind: 'absent' } | { kind: 'git' };

/** Per ref name: where its loose file stands, before packed-refs is consulted. */
type Loose =
  | { kind: 'sha'; sha: string }
  /** No loose file (or a directory in its place): packed-refs decides, as in git. */
  | { kind: 'missing' }
  /** A file where a directory of the name should be: git's lstat fails with ENOTDIR and it stops there. */
  | { kind: 'blocked' }
  | { kind: 'git' };

const GIT = { kind: 'git' } as const;
const ABSENT = { kind: 'absent' } as const;
const MISSING = { kind: 'missing' } as const;
const BLOCKED = { kind: 'blocked' } as const;

const BRANCH_PREFIX = 'refs/heads/';
/** A loose ref file as git writes it: one SHA-1 object id and a newline. */
const LOOSE_CONTENT = /^([0-9a-f]{40})\n?$/;
const OID_LENGTH = 40;
const HEX = /^[0-9a-f]+$/;
const LF = 0x0a;
/**
 * `SOMETHING-g<hex>` is `git describe` output: when no ref has the name, git resolves the hex as
 * an abbreviated object id. Absent names of this shape are left to git.
 */
const DESCRIBE_NAME = /-g[0-9a-fA-F]+$/;

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/**
 * The refs `git rev-parse refs/heads/<name>` tries, in its order (git's ref_rev_parse_rules): the
 * exact name, then the same string under refs/, refs/tags/, refs/heads/ and refs/remotes/. A branch
 * literally named `refs/heads/x` therefore answers for `refs/heads/x` when `x` does not exist.
 */
function candidates(ref: string): string[] {
  return [
    ref,
    `refs/${ref}`,
    `refs/tags/${ref}`,
    `refs/heads/${ref}`,
    `refs/remotes/${ref}`,
    `refs/remotes/${ref}/HEAD`,
  ];
}

/**
 * Whether refs live in files with SHA-1 ids, as in every repository the code host creates. Reftable
 * (extensions.refStorage), SHA-256 (extensions.objectFormat) or a missing config (git would then
 * look for a repository further up) are left to git.
 */
function isPlainRepository(barePath: string): boolean {
  try {
    return !/refstorage|objectformat/i.test(readFileSync(join(barePath, 'config'), 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The loose ref file of `refname` (a path under the repository made of checked components). Each
 * step is lstat'ed, so a symlink anywhere (a ref file or a directory on the way) is never
 * followed: git would follow it, possibly out of the repository, so git answers those.
 */
function readLoose(barePath: string, refname: string): Loose {
  const parts = refname.split('/');
  let path = barePath;
  for (const [i, part] of parts.entries()) {
    if (part === '' || part === '.' || part === '..') return GIT;
    path = join(path, part);
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      const code = errorCode(error);
      // No refs/ directory at all: not a repository as git would find it.
      if (code === 'ENOENT') return i === 0 ? GIT : MISSING;
      if (code === 'ENOTDIR') return BLOCKED;
      return GIT;
    }
    if (stat.isSymbolicLink()) return GIT;
    if (i < parts.length - 1) {
      if (stat.isFile()) return BLOCKED;
      if (!stat.isDirectory()) return GIT;
    } else if (stat.isDirectory()) {
      // git still looks in packed-refs when a directory stands where the loose ref would be.
      return MISSING;
    } else if (!stat.isFile()) {
      return GIT;
    }
  }
  let content: string;
  try {
    content = readFileSync(path, 'latin1');
  } catch {
    // Gone since the lstat (packed or deleted meanwhile): git retries such races itself.
    return GIT;
  }
  // Anything else, `ref: ...` symbolic refs included, is for git to interpret.
  const match = LOOSE_CONTENT.exec(content);
  return match ? { kind: 'sha', sha: match[1]! } : GIT;
}

/** packed-refs, null when there is none, `git` when it cannot be read. */
function readPacked(barePath: string): Buffer | null | 'git' {
  try {
    return readFileSync(join(barePath, 'packed-refs'));
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? null : 'git';
  }
}

/**
 * The id on `refname`'s line of packed-refs (`<id> <refname>\n`; `#` header and `^<id>` peeled
 * lines never match). Compared as bytes, so undecodable names elsewhere in the file cannot alias.
 */
export function findPacked(packed: Buffer, refname: string): string | null {
  const needle = Buffer.from(` ${refname}\n`, 'utf8');
  for (let at = packed.indexOf(needle); at !== -1; at = packed.indexOf(needle, at + 1)) {
    const start = at - OID_LENGTH;
    if (start < 0 || (start > 0 && packed[start - 1] !== LF)) continue;
    const id = packed.toString('latin1', start, at);
    if (HEX.test(id)) return id;
  }
  return null;
}

/**
 * What `refs/heads/<name>` points at, read from files: `sha` (not yet known to be a commit),
 * `absent` (git would find no such ref), or `git` when only git may say.
 */
export function readBranchRef(barePath: string, ref: string): FileRef {
  if (!ref.startsWith(BRANCH_PREFIX) || !isValidBranchName(ref.slice(BRANCH_PREFIX.length))) return GIT;
  if (!isPlainRepository(barePath)) return GIT;
  const names = candidates(ref);
  // Every loose file is read before packed-refs: `git pack-refs` writes packed-refs before it
  // deletes loose files, so reading in this order never misses a ref being packed.
  const loose: Loose[] = [];
  for (const name of names) {
    const found = readLoose(barePath, name);
    if (found.kind === 'git') return GIT;
    // The exact name wins over every other candidate; later ones also depend on packed-refs.
    if (found.kind === 'sha' && loose.length === 0) return found;
    loose.push(found);
  }
  const packed = readPacked(barePath);
  if (packed === 'git') return GIT;
  for (const [i, found] of loose.entries()) {
    if (found.kind === 'sha') return found;
    if (found.kind !== 'missing' || !packed) continue;
    const sha = findPacked(packed, names[i]!);
    if (sha) return { kind: 'sha', sha };
  }
  return DESCRIBE_NAME.test(ref) ? GIT : ABSENT;
}

/** A Set that forgets its least recently used entries beyond `capacity`. */
export class RecentSet {
  private readonly entries = new Set<string>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    if (!this.entries.delete(key)) return false;
    this.entries.add(key);
    return true;
  }

  add(key: string): void {
    this.entries.delete(key);
    this.entries.add(key);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.values().next().value!);
  }
}

/**
 * Objects known to be commits, per repository. An object's type never changes, so a commit stays
 * one; only commit answers are kept (a missing object could still arrive, a tag's answer needs
 * peeling). A few thousand entries cover the branches of many agents at a few hundred bytes each.
 */
const knownCommits = new RecentSet(4096);

/** `git rev-parse --verify <rev>^{commit}`: the commit, or null. */
export async function revParseCommit(barePath: string, rev: string, run: GitRunner): Promise<string | null> {
  const result = await run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], {
    cwd: barePath,
  });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

/**
 * The commit an object id read from a ref names, as `<ref>^{commit}` would answer: itself for a
 * commit (asked of git once, then remembered), the peeled commit of a tag, null otherwise.
 */
export async function commitOf(barePath: string, sha: string, run: GitRunner): Promise<string | null> {
  const key = `${barePath}\0${sha}`;
  if (knownCommits.has(key)) return sha;
  const commit = await revParseCommit(barePath, sha, run);
  if (commit === sha) knownCommits.add(key);
  return commit;
}
