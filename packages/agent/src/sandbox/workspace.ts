import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, mustGit, type GitAuth } from './git.js';

export { git, type GitAuth, type GitResult } from './git.js';
export { runRepoScript, type ScriptRun } from './repo-script.js';

export interface PrepareOptions {
  /** e.g. <dataDir>/workspaces */
  root: string;
  /** The workspace dir is join(root, agentId). */
  agentId: string;
  /** https://host/owner/repo.git, without credentials. */
  cloneUrl: string;
  auth: GitAuth;
  /** null → the remote's default branch. */
  baseBranch: string | null;
  /** The agent's branch, e.g. 'tandem-3'. */
  branch: string;
  author: { name: string; email: string };
}

export interface PreparedWorkspace {
  dir: string;
  branch: string;
  baseBranch: string;
  /** '' while the branch has no commit yet (empty repository). */
  headSha: string;
  /** false when an existing clone was reused. */
  cloned: boolean;
}

/** Remote URLs as set by prepareWorkspace: sandboxed code can rewrite .git/config, we check pushes. */
const expectedRemotes = new Map<string, string>();

async function assertBranchName(name: string): Promise<void> {
  // Also keeps option-looking names ('--upload-pack=…') out of git's argv.
  const check = await git(tmpdir(), ['check-ref-format', '--branch', name]);
  if (check.exitCode !== 0 || name.startsWith('-')) throw new Error(`invalid branch name: ${name}`);
}

async function refExists(dir: string, ref: string): Promise<boolean> {
  return (await git(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).exitCode === 0;
}

async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(dir, ['merge-base', '--is-ancestor', ancestor, descendant])).exitCode === 0;
}

async function remoteDefaultBranch(dir: string, auth: GitAuth): Promise<string | null> {
  const out = await git(dir, ['ls-remote', '--symref', 'origin', 'HEAD'], { auth });
  return /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(out.stdout)?.[1] ?? null;
}

/** Fails when the workspace's git config sends origin traffic (and so the token) anywhere else. */
async function assertRemote(dir: string, expected: string): Promise<void> {
  for (const args of [
    ['remote', 'get-url', 'origin'],
    ['remote', 'get-url', '--push', 'origin'],
  ]) {
    const actual = await mustGit(dir, args);
    if (actual !== expected) throw new Error(`origin of ${dir} resolves to ${actual}, expected ${expected}`);
  }
}

/** The sandbox HOME lives in the workspace; it must never show up as an untracked change. */
async function excludeSandboxHome(dir: string): Promise<void> {
  const exclude = join(dir, '.git', 'info', 'exclude');
  const current = await readFile(exclude, 'utf8').catch(() => '');
  if (current.split('\n').includes('/.home/')) return;
  await mkdir(join(dir, '.git', 'info'), { recursive: true });
  await appendFile(exclude, `${current && !current.endsWith('\n') ? '\n' : ''}/.home/\n`);
}

async function checkoutAgentBranch(dir: string, branch: string, baseBranch: string): Promise<void> {
  const current = (await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim();
  const local = `refs/heads/${branch}`;
  const remote = `refs/remotes/origin/${branch}`;
  const hasLocal = await refExists(dir, local);
  if (await refExists(dir, remote)) {
    // Resuming: the remote branch is the truth, except for local commits not yet pushed.
    if (!hasLocal) {
      await mustGit(dir, ['checkout', '-q', '-B', branch, remote]);
      return;
    }
    if (current !== branch) await mustGit(dir, ['checkout', '-q', branch]);
    // Behind → fast-forward; ahead → keep; diverged → keep local, the next push reports it.
    if (await isAncestor(dir, local, remote)) await mustGit(dir, ['merge', '-q', '--ff-only', remote]);
    return;
  }
  if (hasLocal) {
    if (current !== branch) await mustGit(dir, ['checkout', '-q', branch]);
    return;
  }
  const base = `refs/remotes/origin/${baseBranch}`;
  if (await refExists(dir, base)) {
    await mustGit(dir, ['checkout', '-q', '--no-track', '-b', branch, base]);
    return;
  }
  const anyRemoteBranch = (await mustGit(dir, ['for-each-ref', '--count=1', 'refs/remotes/origin/'])) !== '';
  if (anyRemoteBranch) throw new Error(`base branch ${baseBranch} does not exist on origin`);
  // Empty repository: the agent's first commit starts the history. symbolic-ref works while HEAD is
  // unborn, where `checkout --orphan` refuses.
  await mustGit(dir, ['symbolic-ref', 'HEAD', local]);
}

/**
 * Clones (or fetches into an existing clone) and checks out the agent's branch: the remote one when
 * it exists (resume after a restart), else a new one from the base branch.
 */
export async function prepareWorkspace(options: PrepareOptions): Promise<PreparedWorkspace> {
  const { auth, cloneUrl, branch } = options;
  await assertBranchName(branch);
  if (options.baseBranch !== null) await assertBranchName(options.baseBranch);
  const dir = join(options.root, options.agentId);
  await mkdir(options.root, { recursive: true });
  const cloned = !existsSync(join(dir, '.git'));
  if (cloned) {
    // A directory without .git is a clone that died half-way: start over.
    await rm(dir, { recursive: true, force: true });
    await mustGit(options.root, ['clone', '--quiet', '--', cloneUrl, dir], { auth });
  } else {
    await mustGit(dir, ['remote', 'set-url', 'origin', cloneUrl]);
    await git(dir, ['config', '--unset-all', 'remote.origin.pushurl']);
    await assertRemote(dir, cloneUrl);
    await mustGit(dir, ['fetch', '--quiet', '--prune', 'origin'], { auth });
  }
  expectedRemotes.set(dir, cloneUrl);
  await mustGit(dir, ['config', 'user.name', options.author.name]);
  await mustGit(dir, ['config', 'user.email', options.author.email]);
  await excludeSandboxHome(dir);

  let baseBranch = options.baseBranch ?? (await remoteDefaultBranch(dir, auth));
  if (!baseBranch && cloned) {
    // An empty repository has no HEAD to advertise, but the clone's unborn HEAD names its default.
    baseBranch = (await git(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim() || null;
  }
  baseBranch ??= 'main';

  await checkoutAgentBranch(dir, branch, baseBranch);
  const head = await git(dir, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  return { dir, branch, baseBranch, headSha: head.exitCode === 0 ? head.stdout.trim() : '', cloned };
}

/** Pushes HEAD to the agent's branch, never forcing: a rejected push comes back as pushed: false. */
export async function pushBranch(
  dir: string,
  branch: string,
  auth: GitAuth,
): Promise<{ pushed: boolean; output: string }> {
  await assertBranchName(branch);
  const expected = expectedRemotes.get(dir);
  if (expected) {
    try {
      await assertRemote(dir, expected);
    } catch (error) {
      return { pushed: false, output: error instanceof Error ? error.message : String(error) };
    }
  }
  const result = await git(dir, ['push', 'origin', `HEAD:refs/heads/${branch}`], { auth });
  return { pushed: result.exitCode === 0, output: `${result.stdout}${result.stderr}` };
}
