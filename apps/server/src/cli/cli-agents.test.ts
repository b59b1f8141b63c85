import { execFile } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EmbeddedRunner } from '@tandem/agent';
import { agentMetadataSchema } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADD_SUBTRACT_EDIT, tempDir, writeScriptFile } from '../testing/agent-harness.js';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { runCli, cliTokenFor, startCliServer } from './cli-harness.js';

/** The scripted model: the agent edits, commits, pushes and opens a pull request. */
const scriptFile = writeScriptFile([
  {
    match: 'subtract',
    steps: [
      { text: 'Adding subtract.', tool_calls: [{ name: 'edit_file', args: ADD_SUBTRACT_EDIT }] },
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'Add subtract' } }] },
      {
        tool_calls: [
          { name: 'open_pull_request', args: { title: 'Add subtract', body: 'Adds subtract(a, b).' } },
        ],
      },
      {
        tool_calls: [
          { name: 'task_complete', args: { summary: 'Added subtract and opened a pull request.' } },
        ],
      },
    ],
  },
]);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('the tandem CLI driving a real agent', () => {
  // Made here, where tempDir's removal after the file takes effect (not inside a test).
  const cloneRoot = tempDir('tandem-cli-clone-');
  const testApp = useTestApp('pglite', {
    codeHost: true,
    agents: { models: { scriptedModelFile: scriptFile } },
  });
  const home = tempDir('tandem-cli-home-');
  let app: TestApp;
  let ada: TestUser;
  let url: string;
  let agentId: string;
  const cli = (
    args: string[],
    options: { input?: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
  ) => runCli(['--url', url, ...args], { home, ...options });
  const meta = async (id: string) =>
    agentMetadataSchema.parse(
      (
        await app.server.inject({
          url: `/api/agent/metadata?trajectory_id=${id}`,
          headers: { authorization: `Bearer ${ada.token}` },
        })
      ).json(),
    );
  const cliToken = () => cliTokenFor(app, ada);

  beforeAll(async () => {
    app = testApp();
    ({ ada, url } = await startCliServer(app));
  });

  it('logs in with a pasted token (the browser-free path) and stores it with mode 0600', async () => {
    const token = await cliToken();
    const result = await cli(['login', '--no-browser'], { input: `${token}\n` });
    expect(result.stderr).toContain(`${url}/cli-auth-success?port=`);
    expect(result).toMatchObject({ code: 0, stdout: `Signed in to ${url} as ada.\n` });
    const file = join(home, '.config/tandem/config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url, token });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('creates an agent and --watch follows it until its pull request is open', async () => {
    const result = await cli(
      ['create', 'acme/webapp', 'Please add subtract', '--model', 'scripted', '--watch', '--interval', '0.2'],
      { timeoutMs: 55_000 },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [id, link] = result.stdout.split('\n');
    expect(id).toMatch(UUID);
    agentId = id!;
    expect(link).toBe(`${url}/gh/acme/webapp/agent/${agentId}`);
    const out = result.stdout;
    expect(out).toContain('Please add subtract');
    expect(out).toContain('Edited src/math.js +4 -0');
    expect(out).toContain('+export function subtract(a, b) {');
    expect(out).toMatch(/● Committed [0-9a-f]{7} to tandem-\S+: Add subtract/);
    expect(out).toMatch(/Opened pull request #\d+ Add subtract http:\S+\/acme\/webapp\/pull\/\d+/);
    expect(out).toContain('✓ Added subtract and opened a pull request.');
    expect(out).toMatch(/— agent paused/);
    expect((await meta(agentId)).sources['acme/webapp']?.[0]).toMatchObject({
      type: 'branch',
      state: 'open',
    });
  }, 60_000);

  it('sends messages from the argument and from standard input, and view --json prints them', async () => {
    expect(await cli(['message', agentId, 'Thanks!'])).toMatchObject({ code: 0 });
    await (app.runner as EmbeddedRunner).idle(agentId);
    expect(await cli(['message', agentId], { input: 'From a pipe\n' })).toMatchObject({ code: 0 });
    await (app.runner as EmbeddedRunner).idle(agentId);
    const view = await cli(['view', agentId, '--json']);
    expect(view.code).toBe(0);
    const items = JSON.parse(view.stdout) as { item_type: string; message?: string }[];
    const messages = items.filter((i) => i.item_type === 'message').map((i) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['Please add subtract', 'Thanks!', 'From a pipe\n']));
    expect(items.some((i) => i.item_type === 'commit')).toBe(true);
    // The plain rendering of the same conversation.
    const plain = await cli(['view', agentId]);
    expect(plain.stdout).toContain('Thanks!');
    expect(plain.stdout).not.toContain('\u001b[');
  }, 60_000);

  it("checks out the agent's branch in a clone, refusing other repositories and dirty trees", async () => {
    const token = await app.codeHost!.issueInstallationToken(1000);
    const dir = cloneRoot;
    const header = `http.extraHeader=Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    // Asynchronous: the code host serves git from this very process, a sync call would deadlock it.
    const git = async (cwd: string, ...args: string[]) =>
      (await promisify(execFile)('git', args, { cwd, encoding: 'utf8' })).stdout.trim();
    await git(dir, '-c', header, 'clone', '--quiet', `${app.codeHost!.url}/acme/webapp.git`, 'webapp');
    const clone = join(dir, 'webapp');
    await git(clone, 'config', 'http.extraHeader', header.slice('http.extraHeader='.length));
    await git(clone, 'config', 'user.email', 'ada@example.com');
    await git(clone, 'config', 'user.name', 'Ada');

    const other = join(dir, 'other');
    await git(dir, 'init', '--quiet', other);
    await git(other, 'remote', 'add', 'origin', 'git@github.com:someone/else.git');
    const wrong = await cli(['checkout', agentId], { cwd: other });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('This clone is not acme/webapp (remotes: origin → someone/else)');

    writeFileSync(join(clone, 'README.md'), 'changed\n');
    const dirty = await cli(['checkout', agentId], { cwd: clone });
    expect(dirty).toMatchObject({ code: 1, stderr: expect.stringContaining('uncommitted changes') });
    await git(clone, 'checkout', '--', 'README.md');

    const branch = (await meta(agentId)).sources['acme/webapp']![0]!.branch!;
    const done = await cli(['checkout', agentId], { cwd: clone });
    expect(done).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`Checked out ${branch} (origin/${branch})`),
    });
    expect(await git(clone, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(branch);
    expect(readFileSync(join(clone, 'src/math.js'), 'utf8')).toContain('export function subtract');
    // Again, with the local branch already there: fast-forwarded, not recreated.
    await git(clone, 'checkout', '--quiet', 'main');
    expect(await cli(['checkout', agentId], { cwd: clone })).toMatchObject({ code: 0 });
  }, 60_000);
});
