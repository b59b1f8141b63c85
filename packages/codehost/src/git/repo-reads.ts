import { commitOf, readBranchRef, revParseCommit, type GitRunner } from './read-refs.js';
import { git, gitText } from './run-git.js';

export interface BranchRef {
  name: string;
  sha: string;
  committedDate: string;
}

export interface CommitInfo {
  sha: string;
  message: string;
  authorName: string;
  authorEmail: string;
  date: string;
  parents: string[];
  tree: string;
}

export interface ChangedFile {
  filename: string;
  previousFilename: string | null;
  status: 'added' | 'removed' | 'modified' | 'renamed';
  /** The file's blob: the new one, or the old one of a removed file. */
  sha: string;
  additions: number;
  deletions: number;
  patch: string;
}

export async function listBranches(barePath: string): Promise<BranchRef[]> {
  const out = await gitText(
    [
      'for-each-ref',
      '--sort=-committerdate',
      '--format=%(refname:short)%00%(objectname)%00%(committerdate:iso-strict)',
      'refs/heads',
    ],
    { cwd: barePath },
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', sha = '', committedDate = ''] = line.split('\0');
      return { name, sha, committedDate };
    });
}

/**
 * The commit `ref` names (`git rev-parse --verify <ref>^{commit}`), or null. A full branch ref is
 * first read from the repository's files (read-refs.ts): an absent branch, the common case when
 * agents start, then costs no process at all, and a branch's commit only its first lookup.
 */
export async function resolveRef(
  barePath: string,
  ref: string,
  run: GitRunner = git,
): Promise<string | null> {
  const found = readBranchRef(barePath, ref);
  if (found.kind === 'absent') return null;
  if (found.kind === 'sha') return commitOf(barePath, found.sha, run);
  return revParseCommit(barePath, ref, run);
}

const COMMIT_FORMAT = '%H%x00%an%x00%ae%x00%aI%x00%P%x00%T%x00%B%x1e';

function parseCommits(out: string): CommitInfo[] {
  return out
    .split('\x1e')
    .map((chunk) => chunk.replace(/^\n/, ''))
    .filter(Boolean)
    .map((chunk) => {
      const [sha = '', authorName = '', authorEmail = '', date = '', parents = '', tree = '', message = ''] =
        chunk.split('\0');
      return {
        sha,
        authorName,
        authorEmail,
        date,
        parents: parents.split(' ').filter(Boolean),
        tree,
        message: message.trimEnd(),
      };
    });
}

export async function getCommit(barePath: string, sha: string): Promise<CommitInfo | null> {
  const result = await git(['log', '-1', `--format=${COMMIT_FORMAT}`, '--end-of-options', sha], {
    cwd: barePath,
  });
  if (result.code !== 0) return null;
  return parseCommits(result.stdout.toString())[0] ?? null;
}

/** Commits reachable from head but not base, oldest first (like GitHub's compare and PR commits). */
export async function commitsBetween(barePath: string, base: string, head: string): Promise<CommitInfo[]> {
  const out = await gitText(
    ['log', '--reverse', `--format=${COMMIT_FORMAT}`, '--end-of-options', `${base}..${head}`],
    {
      cwd: barePath,
    },
  );
  return parseCommits(out);
}

export async function listCommits(
  barePath: string,
  ref: string,
  limit: number,
  skip = 0,
): Promise<CommitInfo[]> {
  const out = await gitText(
    ['log', `-${limit}`, `--skip=${skip}`, `--format=${COMMIT_FORMAT}`, '--end-of-options', ref],
    { cwd: barePath },
  );
  return parseCommits(out);
}

export async function mergeBase(barePath: string, a: string, b: string): Promise<string | null> {
  const result = await git(['merge-base', '--end-of-options', a, b], { cwd: barePath });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

export async function countCommits(barePath: string, range: string): Promise<number> {
  return Number(
    (await gitText(['rev-list', '--count', '--end-of-options', range], { cwd: barePath })).trim(),
  );
}

/** Per-file changes between two commits, with unified patches. */
export async function diffFiles(barePath: string, from: string, to: string): Promise<ChangedFile[]> {
  const raw = await gitText(['diff', '--raw', '--no-abbrev', '-M', '-z', '--end-of-options', from, to], {
    cwd: barePath,
  });
  const numstat = await gitText(['diff', '--numstat', '-M', '-z', '--end-of-options', from, to], {
    cwd: barePath,
  });
  // -z raw records: ":oldmode newmode oldsha newsha STATUS\0path\0" (renames: two paths).
  const parts = raw.split('\0');
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length;) {
    const header = parts[i++] ?? '';
    if (!header.startsWith(':')) continue;
    const [, , oldSha = '', newSha = '', code = ''] = header.slice(1).split(' ');
    if (code.startsWith('R')) {
      const previous = parts[i++] ?? '';
      const filename = parts[i++] ?? '';
      files.push({
        filename,
        previousFilename: previous,
        status: 'renamed',
        sha: newSha,
        additions: 0,
        deletions: 0,
        patch: '',
      });
    } else {
      const filename = parts[i++] ?? '';
      const kind = code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified';
      files.push({
        filename,
        previousFilename: null,
        status: kind,
        sha: kind === 'removed' ? oldSha : newSha,
        additions: 0,
        deletions: 0,
        patch: '',
      });
    }
  }
  applyNumstat(files, numstat);
  for (const file of files) {
    const paths = file.previousFilename ? [file.previousFilename, file.filename] : [file.filename];
    const patch = await gitText(['diff', '-M', '--end-of-options', from, to, '--', ...paths], {
      cwd: barePath,
    });
    // GitHub's `patch` starts at the first hunk, without the diff header lines.
    const lines = patch.split('\n');
    const firstHunk = lines.findIndex((line) => line.startsWith('@@'));
    file.patch = firstHunk === -1 ? '' : lines.slice(firstHunk).join('\n').trimEnd();
  }
  return files;
}

function applyNumstat(files: ChangedFile[], numstat: string): void {
  const tokens = numstat.split('\0');
  let i = 0;
  while (i < tokens.length) {
    const head = tokens[i++];
    if (!head) continue;
    const [added = '0', deleted = '0', path = ''] = head.split('\t');
    // Renames print an empty path and then old and new names as separate fields.
    const filename = path === '' ? (i++, tokens[i++] ?? '') : path;
    const file = files.find((f) => f.filename === filename);
    if (file) {
      file.additions = added === '-' ? 0 : Number(added);
      file.deletions = deleted === '-' ? 0 : Number(deleted);
    }
  }
}

export interface TreeEntry {
  name: string;
  path: string;
  /** `commit` is a submodule: a pointer into another repository, with no content here. */
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size: number;
}

export async function listTree(barePath: string, ref: string, dir: string): Promise<TreeEntry[] | null> {
  const spec = dir ? `${ref}:${dir}` : `${ref}:`;
  const result = await git(['ls-tree', '-l', '--end-of-options', spec], { cwd: barePath });
  if (result.code !== 0) return null;
  return result.stdout
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [meta = '', name = ''] = line.split('\t');
      const [, type = 'blob', sha = '', size = '-'] = meta.split(/\s+/);
      return {
        name,
        path: dir ? `${dir}/${name}` : name,
        type: type === 'tree' || type === 'commit' ? type : 'blob',
        sha,
        size: size === '-' ? 0 : Number(size),
      } satisfies TreeEntry;
    });
}

/** git's mode of a symbolic link's tree entry. */
const SYMLINK_MODE = '120000';

/** Whether ref:path is a symbolic link (its blob then holds the link's target, not a file's bytes). */
export async function isSymlink(barePath: string, ref: string, path: string): Promise<boolean> {
  const entry = await git(['ls-tree', '--end-of-options', ref, '--', path], { cwd: barePath });
  return entry.code === 0 && entry.stdout.toString().startsWith(`${SYMLINK_MODE} `);
}

/**
 * The object at ref:path: a file's bytes, a directory marker, or null when absent. One `git
 * cat-file --batch` tells its type, id and bytes: three processes in a row (type, id, bytes) made
 * a read wait three times for the launcher's low-priority starts on a busy machine, about 370 ms
 * for the instructions file that a burst of new agents asks for (issue 15).
 */
export async function readPath(
  barePath: string,
  ref: string,
  path: string,
): Promise<{ kind: 'file'; content: Buffer; sha: string } | { kind: 'dir' } | null> {
  // The name is one line of the batch's input: a line break would make it two requests.
  if (/[\r\n]/.test(ref) || /[\r\n]/.test(path)) return null;
  const read = await git(['cat-file', '--batch'], { cwd: barePath, input: Buffer.from(`${ref}:${path}\n`) });
  if (read.code !== 0) return null;
  const out = read.stdout;
  const headerEnd = out.indexOf(10);
  // "<id> <type> <size>", or "<name> missing" / "<name> ambiguous" for what is not there.
  const header = /^([0-9a-f]{40}(?:[0-9a-f]{24})?) (\w+) (\d+)$/.exec(out.subarray(0, headerEnd).toString());
  if (headerEnd < 0 || !header) return null;
  const [, sha, type, size] = header;
  if (type === 'tree') return { kind: 'dir' };
  if (type !== 'blob') return null;
  const content = out.subarray(headerEnd + 1, headerEnd + 1 + Number(size));
  if (content.length !== Number(size)) return null;
  return { kind: 'file', content: Buffer.from(content), sha: sha! };
}

export async function isAncestor(barePath: string, ancestor: string, descendant: string): Promise<boolean> {
  return (
    (await git(['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant], { cwd: barePath }))
      .code === 0
  );
}

/** git's empty tree: what a root commit is compared against. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export interface TagRef {
  name: string;
  /** The commit the tag points at (annotated tags peeled). */
  sha: string;
}

export async function listTags(barePath: string): Promise<TagRef[]> {
  const out = await gitText(
    ['for-each-ref', '--format=%(refname:short)%00%(objectname)%00%(*objectname)', 'refs/tags'],
    { cwd: barePath },
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', sha = '', peeled = ''] = line.split('\0');
      return { name, sha: peeled || sha };
    });
}

const SHA_RE = /^[0-9a-f]{7,40}$/i;

/** NUL, newlines and other C0 controls or DEL: never part of a path a URL may name. */
export function hasControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** A commit named by an abbreviated or full hex sha; anything else (options included) is null. */
export async function resolveCommitSha(barePath: string, sha: string): Promise<string | null> {
  return SHA_RE.test(sha) ? resolveRef(barePath, sha) : null;
}

/**
 * A repository path from a URL: segments without `.`/`..`, empty parts or control characters, so a
 * crafted URL can never name anything outside the tree. Null when it is not one.
 */
export function safeRepoPath(segments: string[]): string | null {
  const parts = segments.at(-1) === '' ? segments.slice(0, -1) : segments;
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('\\') || hasControlChars(part))
      return null;
  }
  return parts.join('/');
}

export interface RefAndPath {
  /** The branch, tag or sha as the URL named it. */
  ref: string;
  commit: string;
  path: string;
}

/**
 * Splits `{ref}/{path}` as GitHub does when refs contain slashes (`feature/x/src/a.js`): the longest
 * prefix that names a branch (then a tag) wins, else a hex sha as the first segment. Only names
 * listed by git or hex shas ever reach git as revisions.
 */
export async function resolveRefAndPath(barePath: string, rest: string): Promise<RefAndPath | null> {
  const segments = rest.split('/');
  const branches = new Map((await listBranches(barePath)).map((b) => [b.name, b.sha]));
  const tags = new Map((await listTags(barePath)).map((t) => [t.name, t.sha]));
  for (let i = segments.length; i >= 1; i--) {
    const ref = segments.slice(0, i).join('/');
    let commit = branches.get(ref) ?? tags.get(ref) ?? null;
    if (!commit && i === 1) commit = await resolveCommitSha(barePath, ref);
    if (!commit) continue;
    const path = safeRepoPath(segments.slice(i));
    return path === null ? null : { ref, commit, path };
  }
  return null;
}

export type PathObject =
  | { kind: 'dir' }
  | { kind: 'file'; sha: string; size: number; content: Buffer | null }
  | { kind: 'submodule' };

/**
 * The object at commit:path (commit must be a resolved sha, path a `safeRepoPath`). A file's bytes
 * are read only when it is at most `maxBytes`, so a huge blob never fills memory.
 */
export async function readPathCapped(
  barePath: string,
  commit: string,
  path: string,
  maxBytes: number,
): Promise<PathObject | null> {
  if (!path) return { kind: 'dir' };
  const spec = `${commit}:${path}`;
  const type = await git(['cat-file', '-t', '--end-of-options', spec], { cwd: barePath });
  if (type.code !== 0) {
    // A submodule's entry is a commit of another repository, which cat-file cannot find here.
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const entries = await listTree(barePath, commit, parent);
    const name = path.slice(path.lastIndexOf('/') + 1);
    return entries?.some((e) => e.name === name && e.type === 'commit') ? { kind: 'submodule' } : null;
  }
  const kind = type.stdout.toString().trim();
  if (kind === 'tree') return { kind: 'dir' };
  if (kind !== 'blob') return null;
  const sha = (await gitText(['rev-parse', '--verify', '--end-of-options', spec], { cwd: barePath })).trim();
  const size = Number((await gitText(['cat-file', '-s', sha], { cwd: barePath })).trim());
  const content = size <= maxBytes ? (await git(['cat-file', 'blob', sha], { cwd: barePath })).stdout : null;
  return { kind: 'file', sha, size, content };
}
