import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPacked, readBranchRef, RecentSet, type GitRunner } from './read-refs.js';
import { commitFiles, initBare } from './repo-files.js';
import { resolveRef } from './repo-reads.js';
import { git, gitText } from './run-git.js';

/** git, counting the processes it starts. */
function countingGit() {
  const counter = { calls: 0, run: (async () => ({}) as never) as GitRunner };
  counter.run = (args, options) => {
    counter.calls++;
    return git(args, options);
  };
  return counter;
}

/** What the code host answered before read-refs.ts: git's own rev-parse. */
async function revParse(bare: string, ref: string): Promise<string | null> {
  const result = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
    cwd: bare,
  });
  return result.code === 0 ? result.stdout.toString().trim() : null;
}

describe('branch lookups read from files', () => {
  const root = mkdtempSync(join(tmpdir(), 'codehost-refs-'));
  const bare = join(root, 'repo.git');
  const outside = join(root, 'outside');
  const shas = {} as Record<
    'main' | 'old' | 'tagged' | 'feature' | 'packedOnly' | 'tree' | 'tagObject' | 'treeTagObject',
    string
  >;
  const sh = (args: string[]) => gitText(args, { cwd: bare }).then((out) => out.trim());

  beforeAll(async () => {
    await initBare(bare, 'main');
    shas.main = await commitFiles(bare, 'main', { 'a.txt': 'a' }, 'first');
    shas.old = shas.main;
    shas.main = await commitFiles(bare, 'main', { 'a.txt': 'b' }, 'second');
    shas.feature = await commitFiles(bare, 'feature/a', { 'f.txt': 'f' }, 'feature');
    shas.packedOnly = await commitFiles(bare, 'packed/only', { 'p.txt': 'p' }, 'packed');
    shas.tagged = shas.main;
    shas.tree = await sh(['rev-parse', `${shas.main}^{tree}`]);
    // Annotated tags: one of a commit, one of a tree, then branches pointing at the tag objects.
    await sh(['tag', '-a', 'v1', '-m', 'v1', shas.main]);
    await sh(['tag', '-a', 'vtree', '-m', 'tree', shas.tree]);
    shas.tagObject = await sh(['rev-parse', 'refs/tags/v1']);
    shas.treeTagObject = await sh(['rev-parse', 'refs/tags/vtree']);
    // git refuses to write a non-commit to refs/heads/ itself; older git and direct writes do not.
    writeFileSync(join(bare, 'refs/heads/t'), `${shas.tagObject}\n`);
    writeFileSync(join(bare, 'refs/heads/tree-tag'), `${shas.treeTagObject}\n`);
    writeFileSync(join(bare, 'refs/heads/tree'), `${shas.tree}\n`);
    // A branch literally named `refs/heads/quirk`: git's rev-parse finds it for `refs/heads/quirk`.
    await sh(['update-ref', 'refs/heads/refs/heads/quirk', shas.old]);
    await sh(['pack-refs', '--all']);
    // After packing: `main` loose again with a newer commit than its packed line.
    await sh(['update-ref', 'refs/heads/main', shas.feature]);
    shas.main = shas.feature;
    // Outside the refs: files a symlink or a crafted name could try to reach.
    mkdirSync(outside);
    writeFileSync(join(outside, 'ref'), `${shas.old}\n`);
    symlinkSync(join(outside, 'ref'), join(bare, 'refs/heads/evil'));
    symlinkSync(outside, join(bare, 'refs/heads/evil-dir'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a loose ref, then answers again without git', async () => {
    await sh(['update-ref', 'refs/heads/loose', shas.old]);
    expect(existsSync(join(bare, 'refs/heads/loose'))).toBe(true);
    const git = countingGit();
    expect(await resolveRef(bare, 'refs/heads/loose', git.run)).toBe(shas.old);
    // Once to learn that the object is a commit; never again.
    expect(git.calls).toBe(1);
    expect(await resolveRef(bare, 'refs/heads/loose', git.run)).toBe(shas.old);
    expect(git.calls).toBe(1);
  });

  it('reads a packed ref', async () => {
    expect(existsSync(join(bare, 'refs/heads/packed/only'))).toBe(false);
    expect(readFileSync(join(bare, 'packed-refs'), 'utf8')).toContain(
      `${shas.packedOnly} refs/heads/packed/only\n`,
    );
    expect(readBranchRef(bare, 'refs/heads/packed/only')).toEqual({
      kind: 'sha',
      sha: shas.packedOnly,
    });
    expect(await resolveRef(bare, 'refs/heads/packed/only')).toBe(shas.packedOnly);
  });

  it('prefers the loose ref over a stale packed line, as git does', async () => {
    expect(readFileSync(join(bare, 'packed-refs'), 'utf8')).toContain(`${shas.tagged} refs/heads/main\n`);
    expect(readBranchRef(bare, 'refs/heads/main')).toEqual({ kind: 'sha', sha: shas.main });
    expect(await resolveRef(bare, 'refs/heads/main')).toBe(await revParse(bare, 'refs/heads/main'));
  });

  it('answers a missing branch with null and starts no process', async () => {
    // A file where a directory of the name would be (main/x), a missing directory, a plain miss.
    for (const name of ['nope', 'tandem/agent-7', 'main/x', 'feature/b', 'packed', 'emoji-🚀']) {
      const git = countingGit();
      expect({ name, sha: await resolveRef(bare, `refs/heads/${name}`, git.run) }).toEqual({
        name,
        sha: null,
      });
      expect({ name, calls: git.calls }).toEqual({ name, calls: 0 });
      expect({ name, git: await revParse(bare, `refs/heads/${name}`) }).toEqual({ name, git: null });
    }
  });

  it('leaves names that could escape refs/heads/ to git', async () => {
    for (const name of [
      '../config',
      'a/../../HEAD',
      '/etc/passwd',
      '//etc/passwd',
      '..',
      '../../../../etc/hosts',
    ]) {
      const ref = `refs/heads/${name}`;
      expect({ name, read: readBranchRef(bare, ref) }).toEqual({ name, read: { kind: 'git' } });
      const git = countingGit();
      expect({ name, sha: await resolveRef(bare, ref, git.run) }).toEqual({
        name,
        sha: await revParse(bare, ref),
      });
      expect({ name, calls: git.calls }).toEqual({ name, calls: 1 });
    }
  });

  it('never follows a symlinked ref file or directory, and answers as git does', async () => {
    for (const name of ['evil', 'evil-dir/ref']) {
      const ref = `refs/heads/${name}`;
      expect({ name, read: readBranchRef(bare, ref) }).toEqual({ name, read: { kind: 'git' } });
      expect({ name, sha: await resolveRef(bare, ref) }).toEqual({ name, sha: await revParse(bare, ref) });
    }
  });

  it('peels a branch that points at an annotated tag, as rev-parse ^{commit} does', async () => {
    const git = countingGit();
    expect(await resolveRef(bare, 'refs/heads/t', git.run)).toBe(shas.tagged);
    expect(await revParse(bare, 'refs/heads/t')).toBe(shas.tagged);
    // Not a commit itself, so never remembered as one: each lookup asks git again.
    await resolveRef(bare, 'refs/heads/t', git.run);
    expect(git.calls).toBe(2);
    expect(await resolveRef(bare, 'refs/heads/tree-tag')).toBeNull();
    expect(await resolveRef(bare, 'refs/heads/tree')).toBeNull();
  });

  it('leaves symbolic refs, reftable and SHA-256 repositories to git', async () => {
    await sh(['symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
    expect(readBranchRef(bare, 'refs/heads/alias')).toEqual({ kind: 'git' });
    expect(await resolveRef(bare, 'refs/heads/alias')).toBe(shas.main);
    const config = readFileSync(join(bare, 'config'), 'utf8');
    try {
      writeFileSync(join(bare, 'config'), `${config}[extensions]\n\trefStorage = reftable\n`);
      expect(readBranchRef(bare, 'refs/heads/nope')).toEqual({ kind: 'git' });
      writeFileSync(join(bare, 'config'), `${config}[extensions]\n\tobjectFormat = sha256\n`);
      expect(readBranchRef(bare, 'refs/heads/nope')).toEqual({ kind: 'git' });
    } finally {
      writeFileSync(join(bare, 'config'), config);
    }
  });

  it('answers exactly as git rev-parse for a set of names', async () => {
    // Packed lines git's own commands would never leave (appended out of order, so the header no
    // longer claims `sorted`): `feature` behind a directory of loose refs (git still reads
    // packed-refs), `main/x` behind the loose file `main` (git stops at ENOTDIR).
    const packed = readFileSync(join(bare, 'packed-refs'), 'utf8').replace(' sorted ', ' ');
    writeFileSync(
      join(bare, 'packed-refs'),
      `${packed}${shas.old} refs/heads/feature\n${shas.old} refs/heads/main/x\n`,
    );
    const abbrev = shas.old.slice(0, 8);
    const names = [
      'main',
      'feature/a',
      'feature',
      'packed/only',
      'loose',
      't',
      'tree',
      'tree-tag',
      'quirk',
      'refs/heads/quirk',
      `release-g${abbrev}`,
      `release-g${'0'.repeat(8)}`,
      'main/x',
      'nope',
      'v1',
      'alias',
      'evil',
      'HEAD',
      '@',
      '-main',
    ];
    const refs = [
      ...names.map((name) => `refs/heads/${name}`),
      'main',
      'HEAD',
      'refs/tags/v1',
      shas.old,
      abbrev,
      'refs/heads',
      'refs/heads/',
    ];
    for (const ref of refs) {
      expect({ ref, sha: await resolveRef(bare, ref) }).toEqual({ ref, sha: await revParse(bare, ref) });
    }
    // The quirk and describe cases really resolve (so the comparison above means something).
    expect(await resolveRef(bare, 'refs/heads/quirk')).toBe(shas.old);
    expect(await resolveRef(bare, `refs/heads/release-g${abbrev}`)).toBe(shas.old);
    expect(await resolveRef(bare, 'refs/heads/feature')).toBe(shas.old);
    expect(await resolveRef(bare, 'refs/heads/main/x')).toBeNull();
  });
});

describe('findPacked', () => {
  const a = 'a'.repeat(40);
  const b = 'b'.repeat(40);
  const packed = Buffer.from(
    `# pack-refs with: peeled fully-peeled sorted \n${a} refs/heads/x\n^${b}\n${b} refs/heads/y/x\n`,
  );

  it('finds only the exact name on a ref line', () => {
    expect(findPacked(packed, 'refs/heads/x')).toBe(a);
    expect(findPacked(packed, 'refs/heads/y/x')).toBe(b);
    expect(findPacked(packed, 'x')).toBeNull();
    expect(findPacked(packed, 'refs/heads/y')).toBeNull();
    expect(findPacked(Buffer.from(`${a} refs/heads/x`), 'refs/heads/x')).toBeNull();
  });
});

describe('RecentSet', () => {
  it('forgets the least recently used entries beyond its capacity', () => {
    const set = new RecentSet(2);
    set.add('a');
    set.add('b');
    expect(set.has('a')).toBe(true);
    set.add('c');
    expect(set.size).toBe(2);
    expect(set.has('b')).toBe(false);
    expect(set.has('a')).toBe(true);
    expect(set.has('c')).toBe(true);
  });
});
