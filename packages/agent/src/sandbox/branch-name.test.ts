import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isValidBranchName } from './branch-name.js';

const run = promisify(execFile);

async function gitAccepts(name: string): Promise<boolean> {
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
  'a/./b',
  'a/../b',
  'refs/heads/x',
  'emoji-🚀',
];

describe('isValidBranchName', () => {
  it('agrees with git check-ref-format --branch on tricky names', async () => {
    for (const name of NAMES) {
      // Refused more than git does: an option-looking name (git would take it for an option), and
      // '@', which revision syntax reads as HEAD (`git checkout @` would not check out the branch).
      const expected = name.startsWith('-') || name === '@' ? false : await gitAccepts(name);
      expect({ name, valid: isValidBranchName(name) }).toEqual({ name, valid: expected });
    }
  });

  it('refuses a lone surrogate, which git would only ever see replaced', () => {
    expect(isValidBranchName('a\ud800b')).toBe(false);
    expect(isValidBranchName('a\udc00')).toBe(false);
  });
});
