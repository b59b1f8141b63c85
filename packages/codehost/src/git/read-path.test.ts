import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, initBare } from './repo-files.js';
import { readPath } from './repo-reads.js';
import { git, gitText } from './run-git.js';

describe('readPath (the contents API, one git process)', () => {
  const root = mkdtempSync(join(tmpdir(), 'codehost-read-path-'));
  const bare = join(root, 'repo.git');
  let first = '';

  beforeAll(async () => {
    await initBare(bare, 'main');
    first = await commitFiles(bare, 'main', { 'a.txt': 'old' }, 'first');
    await commitFiles(
      bare,
      'main',
      {
        'a.txt': 'line one\nline two\n',
        'docs/guide.md': '# Guide\n',
        'bin.dat': '\u0000\u0001binary\u0000',
        'with space.txt': 'spaced',
      },
      'second',
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("answers a file's bytes and blob id as git's own commands do", async () => {
    for (const path of ['a.txt', 'docs/guide.md', 'bin.dat', 'with space.txt']) {
      const found = await readPath(bare, 'main', path);
      const sha = (await gitText(['rev-parse', `main:${path}`], { cwd: bare })).trim();
      const bytes = (await git(['cat-file', 'blob', sha], { cwd: bare })).stdout;
      expect(found).toEqual({ kind: 'file', content: bytes, sha });
    }
  });

  it('reads at a commit id and at an older commit', async () => {
    const found = await readPath(bare, first, 'a.txt');
    expect(found?.kind === 'file' && found.content.toString()).toBe('old');
  });

  it('tells a directory, and nothing for what is not there', async () => {
    expect(await readPath(bare, 'main', 'docs')).toEqual({ kind: 'dir' });
    expect(await readPath(bare, 'main', 'missing.txt')).toBeNull();
    expect(await readPath(bare, 'no-such-branch', 'a.txt')).toBeNull();
  });

  it('reads a line break in a name as nothing, not as a second request', async () => {
    expect(await readPath(bare, 'main', 'missing\nmain:a.txt')).toBeNull();
    expect(await readPath(bare, 'main\nmain', 'a.txt')).toBeNull();
    expect(await readPath(bare, 'main', 'a.txt\r')).toBeNull();
  });

  it('reads a name that looks like an option as a name', async () => {
    expect(await readPath(bare, '--batch-all-objects', 'a.txt')).toBeNull();
    expect(await readPath(bare, 'main', '--help')).toBeNull();
  });
});
