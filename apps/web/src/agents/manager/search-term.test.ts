import { describe, expect, it } from 'vitest';
import { applyQuickFilter, keepsArchivedRows, isQuickFilterActive, QUICK_FILTERS } from './search-term';

describe('quick filters', () => {
  it('are labelled as the spec names them', () => {
    expect(QUICK_FILTERS.map((f) => f.label)).toEqual([
      'My agents',
      'All creators',
      'Show archived',
      'Hide archived',
      'Show all',
    ]);
  });

  it('My agents sets creator:me, replacing another creator in place', () => {
    expect(applyQuickFilter('', 'mine')).toBe('creator:me');
    expect(applyQuickFilter('fix login', 'mine')).toBe('fix login creator:me');
    expect(applyQuickFilter('creator:bob fix', 'mine')).toBe('creator:me fix');
    expect(applyQuickFilter('Creator:Bob creator:eve is:archived', 'mine')).toBe('creator:me is:archived');
  });

  it('All creators removes every creator: part and keeps the rest', () => {
    expect(applyQuickFilter('creator:me', 'allCreators')).toBe('');
    expect(applyQuickFilter('creator:me  is:archived  bug', 'allCreators')).toBe('is:archived bug');
    expect(applyQuickFilter('bug', 'allCreators')).toBe('bug');
  });

  it('Show archived, Hide archived and Show all edit the is: part', () => {
    expect(applyQuickFilter('creator:me', 'showArchived')).toBe('creator:me is:archived');
    expect(applyQuickFilter('creator:me is:archived', 'hideArchived')).toBe('creator:me is:unarchived');
    expect(applyQuickFilter('is:unarchived creator:me', 'showArchived')).toBe('is:archived creator:me');
    expect(applyQuickFilter('creator:me is:archived', 'showAll')).toBe('creator:me');
    expect(applyQuickFilter('creator:me', 'showAll')).toBe('creator:me');
  });

  it('knows which filters the term already matches', () => {
    expect(isQuickFilterActive('creator:me', 'mine')).toBe(true);
    expect(isQuickFilterActive('creator:me', 'allCreators')).toBe(false);
    expect(isQuickFilterActive('creator:me', 'showAll')).toBe(true);
    expect(isQuickFilterActive('', 'allCreators')).toBe(true);
    expect(isQuickFilterActive('creator:me is:archived', 'showArchived')).toBe(true);
    expect(isQuickFilterActive('creator:me is:archived', 'hideArchived')).toBe(false);
    expect(isQuickFilterActive('creator:bob', 'mine')).toBe(false);
  });

  it('keeps archived rows unless the search hides them (is:unarchived, any case)', () => {
    expect(keepsArchivedRows('creator:me IS:ARCHIVED')).toBe(true);
    expect(keepsArchivedRows('creator:me')).toBe(true);
    expect(keepsArchivedRows('creator:me IS:UNARCHIVED')).toBe(false);
    expect(keepsArchivedRows('is:unarchivedx')).toBe(true);
  });
});
