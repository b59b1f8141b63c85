import type { DiffFile } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { contentHash, viewedText } from './content-hash';

describe('contentHash', () => {
  it('is the first 16 hex characters of the SHA-256', async () => {
    expect(await contentHash('hello')).toBe('2cf24dba5fb0a30e');
    expect(await contentHash('')).toBe('e3b0c44298fc1c14');
  });
});

describe('viewedText', () => {
  const file = (modified: DiffFile['modified']): DiffFile => ({
    filename: 'a',
    previous_filename: null,
    status: 'modified',
    additions: 0,
    deletions: 0,
    original: { status: 'ok', contents: 'old' },
    modified,
  });

  it('is the file as the range leaves it, and tells unreadable states apart', () => {
    expect(viewedText(file({ status: 'ok', contents: 'new' }))).toBe('new');
    expect(viewedText(file({ status: 'binary' }))).not.toBe(viewedText(file({ status: 'too_large' })));
  });
});
