import type { ConversationItem, DiffFile } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { liveChanges, liveDiffFile, overlayLive, roughLineCounts } from './live-changes';

let clock = 0;
const item = (item_type: string, data: Record<string, unknown>): ConversationItem => ({
  item_type,
  action_uuid: `a${clock}`,
  pid: null,
  timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString(),
  action_type: null,
  user_id: null,
  ...data,
});
const edit = (old_files: Record<string, string>, new_files: Record<string, string>, branch?: string) =>
  item('edit', { old_files, new_files, ...(branch ? { branch } : {}) });
const commit = (branch: string) => item('commit', { commit_sha: 'abc1234', branch });

describe('liveChanges', () => {
  it('keeps the first original and the last modified contents of each path after the last commit', () => {
    const items = [
      edit({ 'a.ts': 'a0' }, { 'a.ts': 'a1' }),
      commit('tandem-1'),
      edit({ 'a.ts': 'a1' }, { 'a.ts': 'a2' }),
      item('message', { message: 'hi' }),
      edit({ 'a.ts': 'a2' }, { 'a.ts': 'a3' }),
      edit({ 'b.ts': '' }, { 'b.ts': 'new' }),
    ];
    expect(liveChanges(items, 'tandem-1')).toEqual([
      { path: 'a.ts', original: 'a1', modified: 'a3' },
      { path: 'b.ts', original: '', modified: 'new' },
    ]);
  });

  it('drops paths edited back to where they started', () => {
    const items = [edit({ 'a.ts': 'x' }, { 'a.ts': 'y' }), edit({ 'a.ts': 'y' }, { 'a.ts': 'x' })];
    expect(liveChanges(items, null)).toEqual([]);
  });

  it('only counts commits (and edits) of the known branch', () => {
    const items = [
      edit({ 'a.ts': '1' }, { 'a.ts': '2' }),
      commit('other'),
      edit({ 'b.ts': '1' }, { 'b.ts': '2' }, 'other'),
      edit({ 'c.ts': '1' }, { 'c.ts': '2' }, 'tandem-1'),
    ];
    expect(liveChanges(items, 'tandem-1').map((c) => c.path)).toEqual(['a.ts', 'c.ts']);
    // Without a branch, any commit ends the committed part.
    expect(liveChanges(items, null).map((c) => c.path)).toEqual(['b.ts', 'c.ts']);
  });

  it('ignores malformed edits and is empty with nothing after the last commit', () => {
    expect(liveChanges([item('edit', { old_files: 'x', new_files: { 'a.ts': 3 } })], null)).toEqual([]);
    expect(liveChanges([edit({ a: '1' }, { a: '2' }), commit('b')], 'b')).toEqual([]);
  });
});

describe('live diff files', () => {
  it('counts lines around the common prefix and suffix', () => {
    expect(roughLineCounts('a\nb\nc', 'a\nB\nB2\nc')).toEqual({ additions: 2, deletions: 1 });
    expect(roughLineCounts('', 'x\ny')).toEqual({ additions: 2, deletions: 0 });
  });

  it('shows a created file as added with an empty original', () => {
    expect(liveDiffFile({ path: 'n.ts', original: '', modified: 'x' })).toMatchObject({
      status: 'added',
      additions: 1,
      original: { status: 'not_found', contents: '' },
      modified: { status: 'ok', contents: 'x' },
    });
  });

  it('lays live changes over the committed range, keeping the range original', () => {
    const committed: DiffFile[] = [
      {
        filename: 'a.ts',
        previous_filename: null,
        status: 'modified',
        additions: 1,
        deletions: 1,
        original: { status: 'ok', contents: 'base' },
        modified: { status: 'ok', contents: 'committed' },
      },
    ];
    const files = overlayLive(committed, [
      { path: 'a.ts', original: 'committed', modified: 'live' },
      { path: 'b.ts', original: 'b0', modified: 'b1' },
    ]);
    expect(files.map((f) => [f.filename, f.original, f.modified])).toEqual([
      ['a.ts', { status: 'ok', contents: 'base' }, { status: 'ok', contents: 'live' }],
      ['b.ts', { status: 'ok', contents: 'b0' }, { status: 'ok', contents: 'b1' }],
    ]);
  });
});
