import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSandbox } from './detect.js';
import { git, mustGit } from './git.js';
import { mustSandboxGit, sandboxGit } from './sandbox-git.js';
import { tempDir } from './test-support.js';
import { prepareWorkspace, pushBranch, type PreparedWorkspace } from './workspace.js';

/**
 * A repository whose .git the agent controls names programs in every place git would run one. Host
 * git must never execute them: every workspace git command runs inside the sandbox, where the marker
 * directory (a host path outside the workspace) does not exist, so a payload that ran there leaves no
 * marker. The first test proves the payloads are live by running plain host git on the workspace.
 */
const support = await detectSandbox();
const unusable = support.kind !== 'bubblewrap';
if (unusable && process.env.CI) {
  throw new Error(`CI must run the sandbox escape tests, but bubblewrap is unusable: ${support.detail}`);
}

const AUTH = { token: 'ghs_host_git_escape_token' };
let root: string;
let cleanup: () => Promise<void>;
let markers: string;

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('tandem-host-git-'));
  markers = join(root, 'markers');
  await mkdir(markers);
});
afterAll(() => cleanup());

async function remoteWithCommit(name: string): Promise<string> {
  const bare = join(root, `${name}.git`);
  await mkdir(bare);
  await mustGit(bare, ['init', '--quiet', '--bare', '--initial-branch=main']);
  const scratch = join(root, `${name}-scratch`);
  await mustGit(root, ['clone', '--quiet', `file://${bare}`, scratch]);
  await writeFile(join(scratch, 'README.md'), 'hello\n');
  await writeFile(join(scratch, 'app.js'), 'console.log(1);\n');
  await mustGit(scratch, ['add', '.']);
  await mustGit(scratch, ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-qm', 'init']);
  await mustGit(scratch, ['push', '--quiet', 'origin', 'HEAD:refs/heads/main']);
  return `file://${bare}`;
}

/** Writes a payload into every config key, hook and attribute that makes git run a program. */
async function plant(ws: PreparedWorkspace): Promise<void> {
  const touch = (name: string) => `touch '${join(markers, name)}'`;
  const config: Array<[string, string]> = [
    ['core.fsmonitor', `${touch('fsmonitor')}; false`],
    ['core.hooksPath', join(ws.dir, '.git', 'evil-hooks')],
    ['filter.evil.clean', `${touch('filter-clean')}; cat`],
    ['filter.evil.smudge', `${touch('filter-smudge')}; cat`],
    ['diff.evil.textconv', `${touch('textconv')}; cat`],
    ['diff.external', `${touch('diff-external')}`],
    ['merge.evil.driver', `${touch('merge-driver')}; false`],
    ['gpg.program', join(ws.dir, 'gpg.sh')],
    ['commit.gpgSign', 'true'],
    ['log.showSignature', 'true'],
    ['core.pager', touch('pager')],
    ['credential.helper', `!${touch('credential')}`],
    ['core.askPass', touch('askpass')],
    ['core.sshCommand', touch('ssh')],
    ['core.editor', touch('editor')],
    ['core.alternateRefsCommand', touch('alternate-refs')],
    ['include.path', join(ws.dir, 'included.gitconfig')],
  ];
  for (const [key, value] of config) await mustGit(ws.dir, ['config', key, value]);
  await writeFile(
    join(ws.dir, 'included.gitconfig'),
    `[uploadpack]\n\tpackObjectsHook = ${touch('pack-hook')}\n`,
  );
  await writeFile(join(ws.dir, 'gpg.sh'), `#!/bin/sh\n${touch('gpg')}\n`, { mode: 0o755 });
  await writeFile(join(ws.dir, '.gitattributes'), '* filter=evil diff=evil merge=evil\n');
  const hooks = join(ws.dir, '.git', 'evil-hooks');
  await mkdir(hooks, { recursive: true });
  for (const hook of [
    'pre-commit',
    'commit-msg',
    'post-commit',
    'pre-push',
    'post-checkout',
    'reference-transaction',
  ]) {
    await writeFile(join(hooks, hook), `#!/bin/sh\n${touch(`hook-${hook}`)}\n`, { mode: 0o755 });
  }
}

describe.skipIf(unusable)('host git never runs what a workspace configures', () => {
  it('the planted payloads are live: plain host git in the workspace runs them', async () => {
    const url = await remoteWithCommit('live');
    const ws = await prepareWorkspace({
      root: join(root, 'live-ws'),
      agentId: 'agent-live',
      cloneUrl: url,
      auth: AUTH,
      baseBranch: null,
      branch: 'tandem-1',
      author: { name: 'Tandem', email: 't@example.com' },
    });
    await plant(ws);
    await writeFile(join(ws.dir, 'app.js'), 'console.log(2);\n');
    // What the old tools did: git with only a few -c overrides, on the host.
    await git(ws.dir, ['status']);
    await git(ws.dir, ['diff']);
    await git(ws.dir, ['add', '-A']);
    expect((await readdir(markers)).length).toBeGreaterThan(0);
  });

  it('prepare, add, commit, diff, grep, push and resume leave no marker on the host', async () => {
    const before = new Set(await readdir(markers));
    const url = await remoteWithCommit('safe');
    const options = {
      root: join(root, 'safe-ws'),
      agentId: 'agent-safe',
      cloneUrl: url,
      auth: AUTH,
      baseBranch: null,
      branch: 'tandem-2',
      author: { name: 'Tandem', email: 't@example.com' },
    };
    const ws = await prepareWorkspace(options);
    await plant(ws);
    await writeFile(join(ws.dir, 'app.js'), 'console.log(3);\n');

    await mustSandboxGit(ws, ['add', '-A']);
    await sandboxGit(ws, ['diff', '--cached', '--no-ext-diff']);
    await mustSandboxGit(ws, ['commit', '-q', '-m', 'change']);
    await sandboxGit(ws, ['log', '-p', '-1']);
    await sandboxGit(ws, ['grep', '-n', '--untracked', '-e', 'console']);
    await sandboxGit(ws, ['diff', '--no-ext-diff', '--no-textconv', 'HEAD~1..HEAD']);
    const push = await pushBranch(ws, AUTH);
    expect(push.pushed).toBe(true);
    const again = await prepareWorkspace(options);
    expect(again.headSha).toBe(push.sha);

    const created = (await readdir(markers)).filter((name) => !before.has(name));
    expect(created).toEqual([]);
    const remoteHead = await mustGit(root, ['ls-remote', url, 'refs/heads/tandem-2']);
    expect(remoteHead.split(/\s/)[0]).toBe(push.sha);
  });

  it('the mirror that holds the token is invisible and read-only from the sandbox', async () => {
    const url = await remoteWithCommit('mirror');
    const ws = await prepareWorkspace({
      root: join(root, 'mirror-ws'),
      agentId: 'agent-mirror',
      cloneUrl: url,
      auth: AUTH,
      baseBranch: null,
      branch: 'tandem-3',
      author: { name: 'Tandem', email: 't@example.com' },
    });
    // A git command that tries to reach the mirror from the workspace finds nothing there.
    const seen = await sandboxGit(ws, ['ls-remote', ws.mirror]);
    expect(seen.exitCode).not.toBe(0);
    // Even bound for a fetch, it cannot be written.
    const write = await sandboxGit(ws, ['push', ws.mirror, 'HEAD:refs/heads/evil'], {
      readOnlyBinds: [ws.mirror],
    });
    expect(write.exitCode).not.toBe(0);
    expect(existsSync(join(ws.mirror, 'refs', 'heads', 'evil'))).toBe(false);
  });
});
