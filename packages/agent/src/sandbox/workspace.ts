import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isValidBranchName } from '@tandem/shared';
import { detectSandbox, type SandboxKind } from './detect.js';
import { firstFreeBranch, MAX_BRANCH_SUFFIX } from './free-branch.js';
import { git, mustGit, type GitAuth } from './git.js';
import { readTextIfExists, writeInside } from './safe-fs.js';
import {
  gitCommand,
  mustSandboxGit,
  sandboxGit,
  sandboxGitScript,
  shellWord,
  type GitWorkspace,
} from './sandbox-git.js';

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
  /** A base branch the code host lacks is created from its default branch (a user's choice). */
  createBase?: boolean;
  /**
   * The agent's branch, e.g. 'tandem-3', when it is known to be the agent's own (it pushed it);
   * with `{ free: 'tandem-3' }` the first name the code host does not have yet is taken
   * ('tandem-3', else 'tandem-3-2', 'tandem-3-3'…), so an agent never builds on a branch it did
   * not create.
   */
  branch: string | { free: string };
  author: { name: string; email: string };
  /** Default: detectSandbox().kind. */
  kind?: SandboxKind;
}

export interface PreparedWorkspace extends GitWorkspace {
  dir: string;
  branch: string;
  baseBranch: string;
  /** '' while the branch has no commit yet (empty repository). */
  headSha: string;
  /** false when an existing clone was reused. */
  cloned: boolean;
  /** The host-owned bare repository that talks to the code host (see mirrorDir). */
  mirror: string;
  cloneUrl: string;
}

/**
 * The host-owned bare repository beside the workspaces: the only repository host git ever runs in
 * with the code-host token. Sandboxes never get it writable (it is bound read-only for fetches), so
 * nothing an agent writes can change its config or hooks. Agent ids are UUIDs, never '.mirrors'.
 */
export function mirrorDir(root: string, agentId: string): string {
  return join(root, '.mirrors', `${agentId}.git`);
}

const ORIGIN_REFSPEC = '+refs/heads/*:refs/remotes/origin/*';
/** Pins the commit being pushed inside the workspace while its bundle is written. */
const PUSH_REF = 'refs/tandem/push';

function assertBranchName(name: string): void {
  // Also keeps option-looking names ('--upload-pack=…') out of git's argv.
  if (!isValidBranchName(name)) throw new Error(`invalid branch name: ${name}`);
}

/**
 * Creates the mirror when missing and brings its branches up to date with the code host; true when
 * it was just cloned (its HEAD is then the code host's default branch).
 */
async function syncMirror(mirror: string, cloneUrl: string, auth: GitAuth): Promise<boolean> {
  if (!existsSync(join(mirror, 'HEAD'))) {
    // A bare clone writes no files from the repository and takes over the remote's (maybe unborn) HEAD.
    await rm(mirror, { recursive: true, force: true });
    await mkdir(dirname(mirror), { recursive: true });
    await mustGit(dirname(mirror), ['clone', '--quiet', '--bare', '--no-tags', '--', cloneUrl, mirror], {
      auth,
    });
    return true;
  }
  // The URL is passed each time rather than read from config.
  await mustGit(
    mirror,
    ['fetch', '--quiet', '--prune', '--no-tags', '--', cloneUrl, '+refs/heads/*:refs/heads/*'],
    { auth },
  );
  return false;
}

/** The default branch a just-cloned bare mirror took over from the code host (null when unborn). */
async function mirrorHead(mirror: string): Promise<string | null> {
  const head = (await git(mirror, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim();
  return head && !head.startsWith('-') ? head : null;
}

/** The first of `name`, `name-2`, `name-3`… that the code host (as just fetched) does not have. */
async function freeBranch(mirror: string, name: string): Promise<string> {
  const free = await firstFreeBranch(
    name,
    async (candidate) =>
      (await git(mirror, ['rev-parse', '--verify', '--quiet', `refs/heads/${candidate}`])).exitCode === 0,
  );
  if (free) return free;
  throw new Error(`no free branch name: ${name} to ${name}-${MAX_BRANCH_SUFFIX} all exist on the code host`);
}

async function remoteDefaultBranch(mirror: string, cloneUrl: string, auth: GitAuth): Promise<string | null> {
  const out = await git(mirror, ['ls-remote', '--symref', '--', cloneUrl, 'HEAD'], { auth });
  return /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(out.stdout)?.[1] ?? null;
}

/**
 * A base branch the user chose that the code host does not have yet is created there from the
 * default branch (workspace §2: "It will be created if it doesn't exist"). An empty repository has
 * nothing to branch from: the agent's first commit starts its history as before.
 */
async function createMissingBase(
  mirror: string,
  cloneUrl: string,
  auth: GitAuth,
  base: string,
): Promise<void> {
  const exists = await git(mirror, ['rev-parse', '--verify', '--quiet', `refs/heads/${base}`]);
  if (exists.exitCode === 0) return;
  const from = await remoteDefaultBranch(mirror, cloneUrl, auth);
  if (!from) return;
  const sha = (
    await git(mirror, ['rev-parse', '--verify', '--quiet', `refs/heads/${from}^{commit}`])
  ).stdout.trim();
  if (!/^[0-9a-f]{40,64}$/.test(sha)) return;
  await mustGit(mirror, ['push', '--quiet', '--', cloneUrl, `${sha}:refs/heads/${base}`], { auth });
  await mustGit(mirror, ['update-ref', `refs/heads/${base}`, sha]);
}

/** Updates the workspace's origin/* refs from the mirror, inside the sandbox. */
async function fetchFromMirror(ws: GitWorkspace, mirror: string): Promise<void> {
  await mustSandboxGit(ws, ['fetch', '--quiet', '--prune', '--no-tags', '--', mirror, ORIGIN_REFSPEC], {
    readOnlyBinds: [mirror],
  });
}

/**
 * The sandbox HOME lives in the workspace; it must never show up as an untracked change. Written
 * through safe-fs: the agent may have made .git/info/exclude a link to a host file.
 */
async function excludeSandboxHome(dir: string): Promise<void> {
  const exclude = '.git/info/exclude';
  const current = (await readTextIfExists(dir, exclude, 1024 * 1024).catch(() => null)) ?? '';
  if (current.split('\n').includes('/.home/')) return;
  const next = `${current}${current && !current.endsWith('\n') ? '\n' : ''}/.home/\n`;
  // A planted link makes this fail: the agent then only sees its .home in `git status`.
  await writeInside(dir, exclude, next).catch(() => undefined);
}

async function refExists(ws: GitWorkspace, ref: string): Promise<boolean> {
  return (await sandboxGit(ws, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).exitCode === 0;
}

async function checkoutAgentBranch(ws: GitWorkspace, branch: string, baseBranch: string): Promise<void> {
  const current = (await sandboxGit(ws, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim();
  const local = `refs/heads/${branch}`;
  const remote = `refs/remotes/origin/${branch}`;
  const hasLocal = await refExists(ws, local);
  if (await refExists(ws, remote)) {
    // Resuming: the remote branch is the truth, except for local commits not yet pushed.
    if (!hasLocal) {
      await mustSandboxGit(ws, ['checkout', '-q', '-B', branch, remote]);
      return;
    }
    if (current !== branch) await mustSandboxGit(ws, ['checkout', '-q', branch]);
    // Behind → fast-forward; ahead → keep; diverged → keep local, the next push reports it.
    const behind = await sandboxGit(ws, ['merge-base', '--is-ancestor', local, remote]);
    if (behind.exitCode === 0) await mustSandboxGit(ws, ['merge', '-q', '--ff-only', remote]);
    return;
  }
  if (hasLocal) {
    if (current !== branch) await mustSandboxGit(ws, ['checkout', '-q', branch]);
    return;
  }
  const base = `refs/remotes/origin/${baseBranch}`;
  if (await refExists(ws, base)) {
    await mustSandboxGit(ws, ['checkout', '-q', '--no-track', '-b', branch, base]);
    return;
  }
  const anyRemoteBranch =
    (await mustSandboxGit(ws, ['for-each-ref', '--count=1', 'refs/remotes/origin/'])) !== '';
  if (anyRemoteBranch) throw new Error(`base branch ${baseBranch} does not exist on origin`);
  // Empty repository: the agent's first commit starts the history. symbolic-ref works while HEAD is
  // unborn, where `checkout --orphan` refuses.
  await mustSandboxGit(ws, ['symbolic-ref', 'HEAD', local]);
}

/**
 * A new workspace in one sandbox start (each start costs tens of milliseconds): init, origin, fetch
 * from the mirror, identity, and the agent's branch as checkoutAgentBranch would choose it for a
 * clone without local branches: the remote one when it exists, else new from the base, else
 * (empty repository) an unborn branch.
 */
async function createWorkspace(
  ws: GitWorkspace,
  spec: {
    mirror: string;
    cloneUrl: string;
    author: { name: string; email: string };
    branch: string;
    baseBranch: string;
  },
): Promise<string> {
  const g = (...args: string[]) => gitCommand(args);
  const remote = `refs/remotes/origin/${spec.branch}`;
  const base = `refs/remotes/origin/${spec.baseBranch}`;
  const missingBase = `base branch ${spec.baseBranch} does not exist on origin`;
  const script = [
    'set -e',
    g('init', '--quiet'),
    // Shown by `git remote -v` in the agent's shell; the host never reads it back.
    g('remote', 'add', 'origin', spec.cloneUrl),
    g('fetch', '--quiet', '--prune', '--no-tags', '--', spec.mirror, ORIGIN_REFSPEC),
    g('config', 'user.name', spec.author.name),
    g('config', 'user.email', spec.author.email),
    `if ${g('rev-parse', '--verify', '--quiet', `${remote}^{commit}`)} >/dev/null; then`,
    `  ${g('checkout', '-q', '-B', spec.branch, remote)}`,
    `elif ${g('rev-parse', '--verify', '--quiet', `${base}^{commit}`)} >/dev/null; then`,
    `  ${g('checkout', '-q', '--no-track', '-b', spec.branch, base)}`,
    `elif [ -n "$(${g('for-each-ref', '--count=1', 'refs/remotes/origin/')})" ]; then`,
    `  echo ${shellWord(missingBase)} >&2; exit 3`,
    'else',
    // Empty repository: symbolic-ref works while HEAD is unborn, where `checkout --orphan` refuses.
    `  ${g('symbolic-ref', 'HEAD', `refs/heads/${spec.branch}`)}`,
    'fi',
    // The sha the branch starts at ('' while unborn): the script's only output.
    `${g('rev-parse', '--verify', '--quiet', 'HEAD')} || true`,
  ].join('\n');
  const result = await sandboxGitScript(ws, script, { readOnlyBinds: [spec.mirror] });
  if (result.exitCode === 3) throw new Error(missingBase);
  if (result.exitCode !== 0)
    throw new Error(`creating the workspace failed (${result.exitCode}): ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/**
 * Fetches the code host's branches into the host-owned mirror, then creates (or updates) the agent's
 * workspace from it inside the sandbox and checks out the agent's branch: the remote one when it
 * exists (resume after a restart), else a new one from the base branch.
 *
 * Host git only ever runs in the mirror; every git command on the workspace runs in the sandbox.
 */
export async function prepareWorkspace(options: PrepareOptions): Promise<PreparedWorkspace> {
  const { auth, cloneUrl } = options;
  const wanted = typeof options.branch === 'string' ? options.branch : options.branch.free;
  assertBranchName(wanted);
  if (options.baseBranch !== null) assertBranchName(options.baseBranch);
  const kind = options.kind ?? (await detectSandbox()).kind;
  const dir = join(options.root, options.agentId);
  const mirror = mirrorDir(options.root, options.agentId);
  const ws: GitWorkspace = { dir, kind };
  const freshMirror = await syncMirror(mirror, cloneUrl, auth);
  const branch = typeof options.branch === 'string' ? wanted : await freeBranch(mirror, wanted);
  if (options.baseBranch !== null && options.createBase)
    await createMissingBase(mirror, cloneUrl, auth, options.baseBranch);

  const cloned = !existsSync(join(dir, '.git'));
  // A just-cloned mirror already knows the default branch; an older one asks the code host.
  const baseBranch =
    options.baseBranch ??
    (freshMirror ? await mirrorHead(mirror) : await remoteDefaultBranch(mirror, cloneUrl, auth)) ??
    // An empty repository has no HEAD to advertise: take the default a fresh repository gets.
    ((await git(mirror, ['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim() || null) ??
    'main';
  assertBranchName(baseBranch);

  let headSha: string;
  if (cloned) {
    // A directory without .git is a clone that died half-way: start over.
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    headSha = await createWorkspace(ws, { mirror, cloneUrl, author: options.author, branch, baseBranch });
    await excludeSandboxHome(dir);
  } else {
    await fetchFromMirror(ws, mirror);
    await mustSandboxGit(ws, ['config', 'user.name', options.author.name]);
    await mustSandboxGit(ws, ['config', 'user.email', options.author.email]);
    await excludeSandboxHome(dir);
    await checkoutAgentBranch(ws, branch, baseBranch);
    const head = await sandboxGit(ws, ['rev-parse', '--verify', '--quiet', 'HEAD']);
    headSha = head.exitCode === 0 ? head.stdout.trim() : '';
  }
  return {
    dir,
    kind,
    branch,
    baseBranch,
    headSha: /^[0-9a-f]{40,64}$/.test(headSha) ? headSha : '',
    cloned,
    mirror,
    cloneUrl,
  };
}

/**
 * Brings the code host's branches into the workspace's `origin/*` (the agent's own branch and
 * working tree are left as they are): the mirror fetches as the host, the sandbox fetches from it.
 */
export async function fetchOrigin(ws: PreparedWorkspace, auth: GitAuth): Promise<void> {
  await syncMirror(ws.mirror, ws.cloneUrl, auth);
  await fetchFromMirror(ws, ws.mirror);
}

/**
 * Pushes HEAD to the agent's branch, never forcing: a rejected push comes back as pushed: false.
 *
 * The commits cross from the workspace to the host as data, never as a git command run in the
 * workspace on the host: the sandbox writes a bundle of what origin lacks to a host-owned file, the
 * mirror fetches it (objects checked by fsck) and pushes the exact commit to the code host.
 */
export async function pushBranch(
  ws: PreparedWorkspace,
  auth: GitAuth,
): Promise<{ pushed: boolean; output: string; sha: string }> {
  const { branch, mirror } = ws;
  assertBranchName(branch);
  const head = await sandboxGit(ws, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const sha = head.stdout.trim();
  if (head.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    return { pushed: false, output: 'nothing to push: the branch has no commit', sha: '' };
  }
  const outgoing = `refs/tandem/outgoing/${branch}`;
  const tmp = await mkdtemp(join(tmpdir(), 'tandem-push-'));
  try {
    const bundle = join(tmp, 'push.bundle');
    // A named ref pins the commit the bundle carries, whatever HEAD does meanwhile.
    await mustSandboxGit(ws, ['update-ref', PUSH_REF, sha]);
    // Commits origin already has are excluded, which may leave nothing (already pushed).
    const made = await sandboxGit(ws, ['bundle', 'create', '-', PUSH_REF, '--not', '--remotes=origin'], {
      stdoutFile: bundle,
    });
    await sandboxGit(ws, ['update-ref', '-d', PUSH_REF]);
    if (made.exitCode === 0) {
      const fetched = await git(mirror, [
        ...['-c', 'fetch.fsckObjects=true', 'fetch', '--quiet', '--no-tags'],
        ...['--', bundle, `+${PUSH_REF}:${outgoing}`],
      ]);
      if (fetched.exitCode !== 0) return { pushed: false, output: fetched.stderr, sha };
      const carried = (await git(mirror, ['rev-parse', '--verify', '--quiet', outgoing])).stdout.trim();
      if (carried !== sha) return { pushed: false, output: `the bundle carried ${carried}, not ${sha}`, sha };
    } else if (!/empty bundle/i.test(made.stderr)) {
      return { pushed: false, output: made.stderr, sha };
    }
    const have = await git(mirror, ['cat-file', '-e', `${sha}^{commit}`]);
    if (have.exitCode !== 0) return { pushed: false, output: `commit ${sha} did not reach the host`, sha };
    const result = await git(mirror, ['push', '--', ws.cloneUrl, `${sha}:refs/heads/${branch}`], { auth });
    if (result.exitCode !== 0) return { pushed: false, output: `${result.stdout}${result.stderr}`, sha };
    await mustGit(mirror, ['update-ref', `refs/heads/${branch}`, sha]);
    await mustSandboxGit(ws, ['update-ref', `refs/remotes/origin/${branch}`, sha]);
    return { pushed: true, output: `${result.stdout}${result.stderr}`, sha };
  } finally {
    await git(mirror, ['update-ref', '-d', outgoing]);
    await rm(tmp, { recursive: true, force: true });
  }
}
