import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isValidBranchName } from './branch-name.js';

const run = promisify(execFile);

async function gitAccepts(name: string): Promise<boolean> {
  // A NUL cannot even be passed to git (spawn refuses the argument), so git never accepts it.
  if (name.includes('\0')) return false;
  try {
    await run('git', ['check-ref-format', '--branch', name], { cwd: tmpdir() });
    return true;
  } catch {
    return false;
  }
}

const NAMES = [
  'main',
  'tandem/agent-7',
  'feature/a.b',
  'fix-ü-unicode',
  "tandem-$(touch${IFS}pwned)`touch${IFS}pwned2`;touch${IFS}pwned3'",
  'a/b/c',
  'v1.2',
  'with@sign',
  'x@{',
  '@',
  '@{-1}',
  'a@{u}',
  'HEAD',
  'head',
  '-dash',
  '--upload-pack=touch x',
  '.hidden',
  'a/.hidden',
  'a.',
  'a/b.',
  'a..b',
  'a.lock',
  'a.lock/b',
  'a/b.lock',
  '/a',
  'a/',
  'a//b',
  'a b',
  'a\tb',
  'a\nb',
  'a\u0000b',
  'a\u007fb',
  'a~1',
  'a^',
  'a:b',
  'a?',
  'a*',
  'a[b',
  'a\\b',
  'a]b',
  'a{b}',
  'a,b',
  '',
  '.',
  '..',
  '../config',
  'a/../../HEAD',
  '/etc/passwd',
  'a/./b',
  'a/../b',
  'refs/heads/x',
  'emoji-🚀',
];

describe('isValidBranchName', () => {
  it('agrees with git check-ref-format --branch on tricky names', async () => {
    for (const name of NAMES) {
      // Refused more than git does: option-looking names and '@' (HEAD in revision syntax).
      const expected = name.startsWith('-') || name === '@' ? false : await gitAccepts(name);
      expect({ name, valid: isValidBranchName(name) }).toEqual({ name, valid: expected });
    }
  });

  it('refuses a lone surrogate, which would reach the filesystem as another name', () => {
    expect(isValidBranchName('a\ud800b')).toBe(false);
    expect(isValidBranchName('a\udc00')).toBe(false);
    expect(isValidBranchName('ok-\ud83d\ude80')).toBe(true);
  });

  it('never lets a name climb out of refs/heads/', () => {
    for (const name of ['..', '../x', 'a/..', 'a/../..', '/abs', 'a//b', 'a\\..\\b', '.', 'a/.']) {
      expect({ name, valid: isValidBranchName(name) }).toEqual({ name, valid: false });
    }
  });
});
