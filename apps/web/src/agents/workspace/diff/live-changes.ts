import type { ConversationItem, DiffFile } from '@tandem/shared';
import { commonEnds } from './large-diff';

/** A file the agent changed after its last commit: what it was then and what it is now. */
export interface LiveChange {
  path: string;
  original: string;
  modified: string;
}

/** The identifier of the uncommitted end of the commit range (workspace spec: "live"). */
export const LIVE = 'live';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The string-valued entries of an edit's old_files/new_files (anything else is not trusted). */
function fileMap(value: unknown): Map<string, string> {
  const files = new Map<string, string>();
  if (!isRecord(value)) return files;
  for (const [path, contents] of Object.entries(value)) {
    if (typeof contents === 'string') files.set(path, contents);
  }
  return files;
}

/**
 * Uncommitted changes, read from the conversation (the server only knows pushed commits): the
 * edits after the last commit item (of `branch`, when one is known). Per path, the original is
 * the first such edit's old contents and the modified the last edit's new contents; a path that
 * ends where it started is dropped. `items` are oldest first, as the feed keeps them.
 */
export function liveChanges(items: ConversationItem[], branch: string | null): LiveChange[] {
  const sameBranch = (item: ConversationItem) =>
    branch === null || typeof item.branch !== 'string' || item.branch === branch;
  let start = 0;
  items.forEach((item, index) => {
    if (item.item_type === 'commit' && sameBranch(item)) start = index + 1;
  });
  const changes = new Map<string, LiveChange>();
  for (const item of items.slice(start)) {
    // An edit recorded on another branch is not part of this branch's working tree.
    if (item.item_type !== 'edit' || !sameBranch(item)) continue;
    const before = fileMap(item.old_files);
    for (const [path, contents] of fileMap(item.new_files)) {
      const existing = changes.get(path);
      if (existing) existing.modified = contents;
      else changes.set(path, { path, original: before.get(path) ?? '', modified: contents });
    }
  }
  return [...changes.values()].filter((c) => c.original !== c.modified);
}

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length);

/**
 * Added and removed line counts for the header. Only the common leading and trailing lines are
 * matched (no full diff on the main thread), so an edit in two places counts the lines between
 * them too: close enough for a summary, and Monaco shows the exact diff.
 */
export function roughLineCounts(
  original: string,
  modified: string,
): { additions: number; deletions: number } {
  const a = original === '' ? [] : original.split('\n');
  const b = modified === '' ? [] : modified.split('\n');
  const { head, tail } = commonEnds(a, b);
  return { additions: b.length - head - tail, deletions: a.length - head - tail };
}

/** A live change in the server's diff-file shape, so both render the same way. */
export function liveDiffFile(change: LiveChange): DiffFile {
  const { additions, deletions } = roughLineCounts(change.original, change.modified);
  return {
    filename: change.path,
    previous_filename: null,
    // The edit tool records a created file with empty old contents.
    status: change.original === '' && lineCount(change.modified) > 0 ? 'added' : 'modified',
    additions,
    deletions,
    original:
      change.original === ''
        ? { status: 'not_found', contents: '' }
        : { status: 'ok', contents: change.original },
    modified: { status: 'ok', contents: change.modified },
  };
}

/**
 * The committed range (from..last commit) with the uncommitted changes on top: a live path keeps
 * the range's original (what it was at `from`), or, when the range does not touch it, the live
 * original (the file at the last commit, which is then also the file at `from`).
 */
export function overlayLive(committed: DiffFile[], live: LiveChange[]): DiffFile[] {
  const byPath = new Map(committed.map((file) => [file.filename, file]));
  for (const change of live) {
    const base = byPath.get(change.path);
    if (!base) {
      byPath.set(change.path, liveDiffFile(change));
      continue;
    }
    const original = base.original.status === 'ok' ? base.original.contents : '';
    const counts = roughLineCounts(original, change.modified);
    byPath.set(change.path, { ...base, ...counts, modified: { status: 'ok', contents: change.modified } });
  }
  return [...byPath.values()];
}
