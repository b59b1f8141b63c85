import { describe, expect, it } from 'vitest';
import { diffInput, LARGE_DIFF_LINE_PRODUCT } from './large-diff';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

describe('diffInput', () => {
  it('passes small files through untouched', () => {
    expect(diffInput('a\nb', 'a\nc')).toEqual({
      original: 'a\nb',
      modified: 'a\nc',
      lineOffset: 0,
      trimmed: false,
    });
  });

  it('keeps full texts at exactly the limit', () => {
    const a = lines(2000).join('\n');
    const b = lines(1000).join('\n');
    expect(2000 * 1000).toBe(LARGE_DIFF_LINE_PRODUCT);
    expect(diffInput(a, b).trimmed).toBe(false);
  });

  it('cuts the common prefix and suffix above the limit, numbering from the prefix', () => {
    const original = lines(2000);
    const modified = [...original];
    modified.splice(1200, 2, 'changed A', 'changed B', 'inserted');
    const result = diffInput(original.join('\n'), modified.join('\n'));
    expect(result).toEqual({
      original: 'line 1200\nline 1201',
      modified: 'changed A\nchanged B\ninserted',
      lineOffset: 1200,
      trimmed: true,
    });
  });

  it('handles pure insertions and a lower limit', () => {
    const result = diffInput('a\nb\nc', 'a\nb\nx\nc', 5);
    expect(result).toEqual({ original: '', modified: 'x', lineOffset: 2, trimmed: true });
  });

  it('does not let prefix and suffix overlap on repeated lines', () => {
    const result = diffInput('x\nx\nx', 'x\nx\nx\nx', 1);
    expect(result).toMatchObject({ original: '', modified: 'x', lineOffset: 3 });
  });
});
