import { describe, expect, it } from 'vitest';
import { parseDemoEdit, safeRepoPath } from './demo-request.js';

describe('parseDemoEdit', () => {
  it('reads replace, create and append requests in any quote style', () => {
    expect(parseDemoEdit('Please replace "Hello" with "Hi" in src/greet.js')).toEqual({
      kind: 'replace',
      path: 'src/greet.js',
      from: 'Hello',
      to: 'Hi',
    });
    expect(parseDemoEdit("change 'a + b' to 'b + a' in `src/math.js`, thanks")).toEqual({
      kind: 'replace',
      path: 'src/math.js',
      from: 'a + b',
      to: 'b + a',
    });
    expect(parseDemoEdit('Create a file docs/hello.md with “Hello there”')).toEqual({
      kind: 'create',
      path: 'docs/hello.md',
      content: 'Hello there',
    });
    expect(parseDemoEdit('add a line `Run npm test.` to README.md')).toEqual({
      kind: 'append',
      path: 'README.md',
      text: 'Run npm test.',
    });
  });

  it('finds nothing in requests of other forms', () => {
    expect(parseDemoEdit('Add a subtract function')).toBeNull();
    expect(parseDemoEdit('replace the tests')).toBeNull();
    expect(parseDemoEdit('')).toBeNull();
  });

  it('refuses paths outside the repository or into .git', () => {
    expect(parseDemoEdit('create file ../outside.txt with "x"')).toBeNull();
    expect(parseDemoEdit('create file .git/hooks/pre-commit with "x"')).toBeNull();
    expect(parseDemoEdit('add "x" to /etc/passwd')).toBeNull();
    expect(safeRepoPath('a/../../b.txt')).toBeNull();
    expect(safeRepoPath('./notes.md')).toBe('notes.md');
  });
});
