import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, mustGit } from './git.js';
import { tempDir } from './test-support.js';
import { prepareWorkspace, pushBranch, type PrepareOptions } from './workspace.js';

const AUTH = { token: 'ghs_test_token_1234' };
const IDENTITY = ['-c', 'user.name=Scratch', '-c', 'user.email=scratch@example.com'];

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir('tandem-workspace-test-'));
});
afterEach(() => cleanup());

/** A bare repository on `main` (with one commit unless empty) and a scratch clone to push from. */
async function createRemote(options: { empty?: boolean } = {}) {
  const bare = join(root, 'remote.git');
  await mkdir(bare);
  await mustGit(bare, ['init', '--quiet', '--bare', '--initial-branch=main']);
  const url = `file://${bare}`;
  const scratch = join(root, 'scratch');
  await mustGit(root, ['clone', '--quiet', url, scratch]);
  const commit = async (file: string, branch = 'main') => {
    await writeFile(join(scratch, file), `${file}\n`);
    await mustGit(scratch, ['add', file]);
    await mustGit(scratch, [...IDENTITY, 'commit', '--quiet', '-m', `add ${file}`]);
    await mustGit(scratch, ['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`]);
    return mustGit(scratch, ['rev-parse', 'HEAD']);
  };
  const mainSha = options.empty ? '' : await commit('README.md');
  const remoteSha = (ref: string) => mustGit(bare, ['rev-parse', '--verify', '--quiet', ref]).catch(() => '');
  return { bare, url, scratch, commit, mainSha, remoteSha };
}

function options(url: string, extra: Partial<PrepareOptions> = {}): PrepareOptions {
  return {
    root: join(root, 'workspaces'),
    agentId: 'agent-1',
    cloneUrl: url,
    auth: AUTH,
    baseBranch: null,
    branch: 'tandem-1',
    author: { name: 'Tandem', email: 'tandem@example.com' },
    ...extra,
  };
}

async function commitIn(dir: string, file: string): Promise<string> {
  await writeFile(join(dir, file), `${file}\n`);
  await mustGit(dir, ['add', file]);
  await mustGit(dir, ['commit', '--quiet', '-m', `add ${file}`]);
  return mustGit(dir, ['rev-parse', 'HEAD']);
}

describe('prepareWorkspace', () => {
  it('clones and creates the branch from the default branch', async () => {
    const remote = await createRemote();
    const ws = await prepareWorkspace(options(remote.url));
    expect(ws).toEqual({
      dir: join(root, 'workspaces', 'agent-1'),
      branch: 'tandem-1',
      baseBranch: 'main',
      headSha: remote.mainSha,
      cloned: true,
      kind: expect.stringMatching(/^(bubblewrap|process)$/),
      mirror: join(root, 'workspaces', '.mirrors', 'agent-1.git'),
      cloneUrl: remote.url,
    });
    expect(await mustGit(ws.dir, ['symbolic-ref', '--short', 'HEAD'])).toBe('tandem-1');
    expect(await mustGit(ws.dir, ['config', 'user.name'])).toBe('Tandem');
    expect(await mustGit(ws.dir, ['config', 'user.email'])).toBe('tandem@example.com');
    expect(await readFile(join(ws.dir, '.git', 'info', 'exclude'), 'utf8')).toContain('/.home/\n');
  });

  it('keeps shell metacharacters in branch names inert when it builds a fresh workspace', async () => {
    const remote = await createRemote();
    // Valid git branch names (check-ref-format allows them) that a shell would run.
    const branch = "tandem-$(touch${IFS}pwned)`touch${IFS}pwned2`;touch${IFS}pwned3'";
    const base = 'base-$(touch${IFS}pwned4)';
    await remote.commit('base.md', base);
    const ws = await prepareWorkspace(options(remote.url, { branch: { free: branch }, baseBranch: base }));
    expect(ws.branch).toBe(branch);
    expect(await mustGit(ws.dir, ['symbolic-ref', '--short', 'HEAD'])).toBe(branch);
    expect(ws.headSha).toBe(await remote.remoteSha(`refs/heads/${base}`));
    for (const dir of [root, ws.dir, join(root, 'workspaces')])
      for (const name of ['pwned', 'pwned2', 'pwned3', 'pwned4'])
        expect(existsSync(join(dir, name))).toBe(false);
  });

  it('names a missing base branch on a fresh workspace', async () => {
    const remote = await createRemote();
    await expect(prepareWorkspace(options(remote.url, { baseBranch: 'nope' }))).rejects.toThrow(
      'base branch nope does not exist on origin',
    );
  });

  it('reuses an existing clone and fetches new commits', async () => {
    const remote = await createRemote();
    const first = await prepareWorkspace(options(remote.url));
    const newer = await remote.commit('CHANGELOG.md');
    const second = await prepareWorkspace(options(remote.url));
    expect(second).toMatchObject({
      dir: first.dir,
      cloned: false,
      headSha: remote.mainSha,
      baseBranch: 'main',
    });
    expect(await mustGit(second.dir, ['rev-parse', 'origin/main'])).toBe(newer);
  });

  it('starts from an explicit base branch and rejects a missing one', async () => {
    const remote = await createRemote();
    const devSha = await remote.commit('dev.txt', 'develop');
    const ws = await prepareWorkspace(options(remote.url, { baseBranch: 'develop' }));
    expect(ws).toMatchObject({ baseBranch: 'develop', headSha: devSha });
    await expect(
      prepareWorkspace(options(remote.url, { agentId: 'agent-2', baseBranch: 'nope' })),
    ).rejects.toThrow(/base branch nope/);
  });

  it('creates a chosen base branch the code host lacks from the default branch', async () => {
    const remote = await createRemote();
    const ws = await prepareWorkspace(options(remote.url, { baseBranch: 'release/next', createBase: true }));
    expect(ws).toMatchObject({ baseBranch: 'release/next', headSha: remote.mainSha });
    expect(await remote.remoteSha('refs/heads/release/next')).toBe(remote.mainSha);
    // An existing base is left as it is.
    const moved = await remote.commit('later.txt', 'release/next');
    await prepareWorkspace(
      options(remote.url, { agentId: 'agent-2', baseBranch: 'release/next', createBase: true }),
    );
    expect(await remote.remoteSha('refs/heads/release/next')).toBe(moved);
    // Option-looking names never reach git.
    await expect(
      prepareWorkspace(
        options(remote.url, { agentId: 'agent-3', baseBranch: '--upload-pack=x', createBase: true }),
      ),
    ).rejects.toThrow(/invalid branch name/);
  });

  it('resumes from origin/<branch>, keeping unpushed local commits and fast-forwarding otherwise', async () => {
    const remote = await createRemote();
    const pushed = await remote.commit('work.txt', 'tandem-1');
    const ws = await prepareWorkspace(options(remote.url));
    expect(ws).toMatchObject({ cloned: true, headSha: pushed });

    const local = await commitIn(ws.dir, 'local.txt');
    expect((await prepareWorkspace(options(remote.url))).headSha).toBe(local);

    await mustGit(ws.dir, ['reset', '--quiet', '--hard', 'origin/tandem-1']);
    const newer = await remote.commit('more.txt', 'tandem-1');
    expect((await prepareWorkspace(options(remote.url))).headSha).toBe(newer);
  });

  it('never takes over a branch the code host already has: picks the next free name', async () => {
    const remote = await createRemote();
    const theirs = await remote.commit('theirs.txt', 'tandem-1');
    await remote.commit('more-theirs.txt', 'tandem-1-2');
    const ws = await prepareWorkspace(options(remote.url, { branch: { free: 'tandem-1' } }));
    expect(ws).toMatchObject({ branch: 'tandem-1-3', headSha: remote.mainSha });
    expect(await mustGit(ws.dir, ['symbolic-ref', '--short', 'HEAD'])).toBe('tandem-1-3');

    const sha = await commitIn(ws.dir, 'mine.txt');
    expect((await pushBranch(ws, AUTH)).pushed).toBe(true);
    expect(await remote.remoteSha('refs/heads/tandem-1-3')).toBe(sha);
    expect(await remote.remoteSha('refs/heads/tandem-1')).toBe(theirs);
    // A free name is taken as it is.
    const other = await prepareWorkspace(
      options(remote.url, { agentId: 'agent-2', branch: { free: 'tandem-2' } }),
    );
    expect(other.branch).toBe('tandem-2');
  });

  it('re-clones a directory left behind by an interrupted clone', async () => {
    const remote = await createRemote();
    const dir = join(root, 'workspaces', 'agent-1');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'partial'), '');
    const ws = await prepareWorkspace(options(remote.url));
    expect(ws.cloned).toBe(true);
    expect(existsSync(join(dir, 'partial'))).toBe(false);
  });

  it('works with an empty repository and pushes its first commit', async () => {
    const remote = await createRemote({ empty: true });
    const ws = await prepareWorkspace(options(remote.url));
    expect(ws).toMatchObject({ branch: 'tandem-1', baseBranch: 'main', headSha: '', cloned: true });
    expect(await mustGit(ws.dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/tandem-1');
    expect((await prepareWorkspace(options(remote.url))).cloned).toBe(false);

    const sha = await commitIn(ws.dir, 'first.txt');
    expect((await pushBranch(ws, AUTH)).pushed).toBe(true);
    expect(await remote.remoteSha('refs/heads/tandem-1')).toBe(sha);
  });

  it('does not write through a planted .git/info/exclude link to a host file', async () => {
    const remote = await createRemote();
    const ws = await prepareWorkspace(options(remote.url));
    const hostFile = join(root, 'host-file');
    await writeFile(hostFile, 'host\n');
    const exclude = join(ws.dir, '.git', 'info', 'exclude');
    await rm(exclude);
    await symlink(hostFile, exclude);
    await prepareWorkspace(options(remote.url));
    expect(await readFile(hostFile, 'utf8')).toBe('host\n');
  });

  it('rejects branch names git would read as options', async () => {
    const remote = await createRemote();
    await expect(prepareWorkspace(options(remote.url, { branch: '--upload-pack=x' }))).rejects.toThrow(
      /invalid branch/,
    );
  });

  it('passes the token only as a -c header, never into .git/config or the remote URL', async () => {
    const remote = await createRemote();
    const bin = join(root, 'bin');
    const log = join(root, 'git-args.log');
    await mkdir(bin);
    const realGit = (process.env.PATH ?? '')
      .split(delimiter)
      .map((dir) => join(dir, 'git'))
      .find((path) => existsSync(path));
    await writeFile(join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
    await chmod(join(bin, 'git'), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${delimiter}${savedPath ?? ''}`;
    try {
      const ws = await prepareWorkspace(options(remote.url));
      await prepareWorkspace(options(remote.url)); // the fetch path
      await commitIn(ws.dir, 'change.txt');
      expect((await pushBranch(ws, AUTH)).pushed).toBe(true);

      const header = `http.extraHeader=${authHeader(AUTH)}`;
      const calls = (await readFile(log, 'utf8')).trim().split('\n');
      for (const verb of ['clone', 'fetch', 'push', 'ls-remote']) {
        expect(calls.some((call) => call.includes(header) && call.includes(` ${verb} `))).toBe(true);
      }
      const encoded = Buffer.from(`x-access-token:${AUTH.token}`).toString('base64');
      const config = await readFile(join(ws.dir, '.git', 'config'), 'utf8');
      expect(config).not.toContain(AUTH.token);
      expect(config).not.toContain(encoded);
      expect(config).not.toMatch(/extraheader/i);
      expect(await mustGit(ws.dir, ['remote', 'get-url', 'origin'])).toBe(remote.url);
    } finally {
      process.env.PATH = savedPath;
    }
  });
});

describe('pushBranch', () => {
  it('pushes HEAD to the branch and reports a rejected non-fast-forward push', async () => {
    const remote = await createRemote();
    const ws = await prepareWorkspace(options(remote.url));
    const sha = await commitIn(ws.dir, 'one.txt');
    const push = await pushBranch(ws, AUTH);
    expect(push.pushed).toBe(true);
    expect(await remote.remoteSha('refs/heads/tandem-1')).toBe(sha);

    await remote.commit('elsewhere.txt', 'tandem-2');
    const rejected = await pushBranch({ ...ws, branch: 'tandem-2' }, AUTH);
    expect(rejected.pushed).toBe(false);
    expect(rejected.output).toMatch(/rejected/);
  });

  it('runs no repository hooks on the host', async () => {
    const remote = await createRemote();
    const ws = await prepareWorkspace(options(remote.url));
    const marker = join(root, 'hook-ran');
    await writeFile(join(ws.dir, '.git', 'hooks', 'pre-push'), `#!/bin/sh\ntouch '${marker}'\n`, {
      mode: 0o755,
    });
    await mustGit(ws.dir, ['config', 'core.hooksPath', '.git/hooks']);
    await commitIn(ws.dir, 'one.txt');
    expect((await pushBranch(ws, AUTH)).pushed).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it('ignores a workspace config that redirects origin: host git never reads it', async () => {
    const remote = await createRemote();
    const ws = await prepareWorkspace(options(remote.url));
    const evil = join(root, 'evil.git');
    await mkdir(evil);
    await mustGit(evil, ['init', '--quiet', '--bare']);
    await mustGit(ws.dir, ['config', `url.file://${evil}.insteadOf`, remote.url]);
    await mustGit(ws.dir, ['config', 'remote.origin.pushurl', `file://${evil}`]);
    const sha = await commitIn(ws.dir, 'one.txt');
    const push = await pushBranch(ws, AUTH);
    expect(push).toMatchObject({ pushed: true, sha });
    expect(await remote.remoteSha('refs/heads/tandem-1')).toBe(sha);
    expect(await mustGit(evil, ['for-each-ref'])).toBe('');

    // prepareWorkspace fetches from the code host through the mirror, not through the rewritten URL.
    const newer = await remote.commit('two.txt');
    await prepareWorkspace(options(remote.url));
    expect(await mustGit(ws.dir, ['rev-parse', 'origin/main'])).toBe(newer);
    expect(await mustGit(evil, ['for-each-ref'])).toBe('');
  });
});
