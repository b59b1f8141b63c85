import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, gitText } from './run-git.js';

export async function initBare(path: string, defaultBranch: string): Promise<void> {
  await mkdir(path, { recursive: true });
  await gitText(['init', '--bare', '--quiet', `--initial-branch=${defaultBranch}`, path]);
  await gitText(['config', 'http.receivepack', 'true'], { cwd: path });
}

/** Commits a full set of files as a new commit on `branch` (first commit when the repo is empty). */
export async function commitFiles(
  barePath: string,
  branch: string,
  files: Record<string, string>,
  message: string,
  author = { name: 'Tandem Seed', email: 'seed@tandem.local' },
): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'codehost-commit-'));
  try {
    await gitText(['init', '--quiet', `--initial-branch=${branch}`, work]);
    const exists =
      (await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: barePath })).code === 0;
    if (exists) {
      // The work tree's unborn branch has this name, so fetch to FETCH_HEAD and point it there.
      await gitText(['fetch', '--quiet', barePath, `refs/heads/${branch}`], { cwd: work });
      await gitText(['reset', '--quiet', '--hard', 'FETCH_HEAD'], { cwd: work });
    }
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), content);
    }
    await gitText(['add', '-A'], { cwd: work });
    const env = {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
    await gitText(['commit', '--quiet', '--allow-empty', '-m', message], { cwd: work, env });
    await gitText(['push', '--quiet', barePath, `${branch}:${branch}`], { cwd: work });
    return (await gitText(['rev-parse', 'HEAD'], { cwd: work })).trim();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Every file of a tree at a ref, for copying a template. */
export async function readAllFiles(barePath: string, ref: string): Promise<Record<string, string>> {
  const list = await gitText(['ls-tree', '-r', '--name-only', ref], { cwd: barePath });
  const files: Record<string, string> = {};
  for (const path of list.split('\n').filter(Boolean)) {
    files[path] = await gitText(['show', `${ref}:${path}`], { cwd: barePath });
  }
  return files;
}

/** A merge commit of head into base, as GitHub's merge button makes; null when they conflict. */
export async function mergeBranches(
  barePath: string,
  base: string,
  head: string,
  message: string,
): Promise<string | null> {
  const work = await mkdtemp(join(tmpdir(), 'codehost-merge-'));
  try {
    await gitText(['clone', '--quiet', '--branch', base, barePath, work]);
    await gitText(['fetch', '--quiet', 'origin', `${head}:refs/remotes/origin/__head`], { cwd: work });
    const merged = await git(['merge', '--no-ff', '--quiet', '-m', message, 'refs/remotes/origin/__head'], {
      cwd: work,
    });
    if (merged.code !== 0) return null;
    await gitText(['push', '--quiet', 'origin', `HEAD:refs/heads/${base}`], { cwd: work });
    return (await gitText(['rev-parse', 'HEAD'], { cwd: work })).trim();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Whether head merges cleanly into base (GitHub's `mergeable`), without touching the repository. */
export async function canMerge(barePath: string, base: string, head: string): Promise<boolean> {
  const result = await git(['merge-tree', '--write-tree', base, head], { cwd: barePath });
  return result.code === 0;
}
