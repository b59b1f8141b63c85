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

export async function resolveRef(barePath: string, ref: string): Promise<string | null> {
  const result = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: barePath });
  return result.code === 0 ? result.stdout.toString().trim() : null;
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
  const result = await git(['log', '-1', `--format=${COMMIT_FORMAT}`, sha], { cwd: barePath });
  if (result.code !== 0) return null;
  return parseCommits(result.stdout.toString())[0] ?? null;
}

/** Commits reachable from head but not base, oldest first (like GitHub's compare and PR commits). */
export async function commitsBetween(barePath: string, base: string, head: string): Promise<CommitInfo[]> {
  const out = await gitText(['log', '--reverse', `--format=${COMMIT_FORMAT}`, `${base}..${head}`], {
    cwd: barePath,
  });
  return parseCommits(out);
}

export async function listCommits(barePath: string, ref: string, limit: number): Promise<CommitInfo[]> {
  const out = await gitText(['log', `-${limit}`, `--format=${COMMIT_FORMAT}`, ref], { cwd: barePath });
  return parseCommits(out);
}

export async function mergeBase(barePath: string, a: string, b: string): Promise<string | null> {
  const result = await git(['merge-base', a, b], { cwd: barePath });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

export async function countCommits(barePath: string, range: string): Promise<number> {
  return Number((await gitText(['rev-list', '--count', range], { cwd: barePath })).trim());
}

/** Per-file changes between two commits, with unified patches. */
export async function diffFiles(barePath: string, from: string, to: string): Promise<ChangedFile[]> {
  const status = await gitText(['diff', '--name-status', '-M', '-z', from, to], { cwd: barePath });
  const numstat = await gitText(['diff', '--numstat', '-M', '-z', from, to], { cwd: barePath });
  const parts = status.split('\0').filter((p, i, all) => p !== '' || i < all.length - 1);
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length;) {
    const code = parts[i++] ?? '';
    if (!code) continue;
    if (code.startsWith('R')) {
      const previous = parts[i++] ?? '';
      const filename = parts[i++] ?? '';
      files.push({
        filename,
        previousFilename: previous,
        status: 'renamed',
        additions: 0,
        deletions: 0,
        patch: '',
      });
    } else {
      const filename = parts[i++] ?? '';
      const kind = code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified';
      files.push({ filename, previousFilename: null, status: kind, additions: 0, deletions: 0, patch: '' });
    }
  }
  applyNumstat(files, numstat);
  for (const file of files) {
    const paths = file.previousFilename ? [file.previousFilename, file.filename] : [file.filename];
    const patch = await gitText(['diff', '-M', from, to, '--', ...paths], { cwd: barePath });
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
  type: 'blob' | 'tree';
  sha: string;
  size: number;
}

export async function listTree(barePath: string, ref: string, dir: string): Promise<TreeEntry[] | null> {
  const spec = dir ? `${ref}:${dir}` : `${ref}:`;
  const result = await git(['ls-tree', '-l', spec], { cwd: barePath });
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
        type: type === 'tree' ? 'tree' : 'blob',
        sha,
        size: size === '-' ? 0 : Number(size),
      } satisfies TreeEntry;
    });
}

/** The object at ref:path: a file's bytes, a directory marker, or null when absent. */
export async function readPath(
  barePath: string,
  ref: string,
  path: string,
): Promise<{ kind: 'file'; content: Buffer; sha: string } | { kind: 'dir' } | null> {
  const type = await git(['cat-file', '-t', `${ref}:${path}`], { cwd: barePath });
  if (type.code !== 0) return null;
  if (type.stdout.toString().trim() === 'tree') return { kind: 'dir' };
  const sha = (await gitText(['rev-parse', `${ref}:${path}`], { cwd: barePath })).trim();
  const content = await git(['cat-file', 'blob', sha], { cwd: barePath });
  return { kind: 'file', content: content.stdout, sha };
}

export async function isAncestor(barePath: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: barePath })).code === 0;
}
