import { beforeEach, describe, expect, it } from 'vitest';
import {
  addPendingComment,
  deletePendingComment,
  markCommentsSent,
  readPendingComments,
} from './review-comments';

describe('pending review comments', () => {
  beforeEach(() => localStorage.clear());

  it('keeps comments per agent with UUID ids until they are sent', () => {
    const first = addPendingComment('a1', {
      path: 'src/math.js',
      body: 'Name it minus?',
      line: 3,
      side: 'RIGHT',
    });
    addPendingComment('a2', { path: 'README.md', body: 'Other agent', line: 1, side: 'LEFT' });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(readPendingComments('a1')).toEqual([first]);
    expect(readPendingComments('a1')).toBe(readPendingComments('a1'));
    markCommentsSent('a1', [first.id]);
    expect(readPendingComments('a1')).toEqual([]);
    expect(readPendingComments('a2')).toHaveLength(1);
  });

  it('deletes only unsent comments with a string id, and survives unreadable storage', () => {
    const kept = addPendingComment('a1', { path: 'a.js', body: 'keep', line: 1, side: 'RIGHT' });
    const gone = addPendingComment('a1', { path: 'b.js', body: 'drop', line: 2, side: 'RIGHT' });
    deletePendingComment('a1', 42);
    expect(readPendingComments('a1')).toHaveLength(2);
    deletePendingComment('a1', gone.id);
    expect(readPendingComments('a1')).toEqual([kept]);
    localStorage.setItem('pendingComments:bad', '{nope');
    expect(readPendingComments('bad')).toEqual([]);
  });
});
