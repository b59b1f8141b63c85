import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '@tandem/agent';
import { agents, spiceMessages } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeScriptFile } from '../testing/agent-harness.js';
import { connectCodeHost, settle as settleAll } from '../testing/code-host-product.js';
import { signInAda } from '../testing/scripted-agents.js';
import { useTestApp, type TestApp } from '../testing/test-app.js';

/** The reviewer's script: it tries to push (it cannot), reads the diff, reviews; then the new commits. */
const scriptFile = writeScriptFile([
  {
    match: 'Review pull request',
    steps: [
      { tool_calls: [{ name: 'commit_and_push', args: { message: 'A reviewer must not push' } }] },
      { tool_calls: [{ name: 'run_command', args: { command: 'git diff --stat origin/main...HEAD' } }] },
      {
        tool_calls: [
          {
            name: 'submit_review',
            args: {
              body: 'subtract looks right; it needs a test.',
              comments: [{ path: 'src/math.js', line: 5, body: 'Add a test for subtract.' }],
            },
          },
        ],
      },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Reviewed.' } }] },
      // Woken by the push to the pull request.
      { tool_calls: [{ name: 'git_fetch', args: {} }] },
      { tool_calls: [{ name: 'submit_review', args: { body: 'The new commit adds the test. Thanks!' } }] },
      { tool_calls: [{ name: 'task_complete', args: { summary: 'Reviewed the new commits.' } }] },
    ],
  },
]);

describe.each(testDatabaseKinds())('always-review on %s', (kind) => {
  const testApp = useTestApp(kind, { codeHost: true, agents: { models: { scriptedModelFile: scriptFile } } });
  let app: TestApp;
  let adaToken: string;

  beforeAll(async () => {
    app = testApp();
    await signInAda(app);
    await connectCodeHost(app, {
      users: { ada: 1 },
      repositories: { 'acme/webapp': 200 },
      defaultModel: 'scripted',
    });
    adaToken = await app.codeHost!.issueUserToken('ada');
  });

  /** ada's own REST calls on the code host. */
  async function rest<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${app.codeHost!.apiUrl}${path}`, {
      method,
      headers: { authorization: `token ${adaToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<T>;
  }

  /** Pushes a commit changing src/math.js (or the test) to `branch`, as ada. */
  async function pushTo(branch: string, change: (text: string) => string, file = 'src/math.js') {
    const auth = { token: adaToken };
    const dir = mkdtempSync(join(tmpdir(), 'tandem-review-'));
    try {
      const url = `${app.codeHost!.url}/acme/webapp.git`;
      expect((await git(dir, ['clone', '--quiet', url, 'repo'], { auth })).exitCode).toBe(0);
      const repo = join(dir, 'repo');
      await git(repo, ['checkout', '-q', '-B', branch, `origin/${branch}`]).then(async (r) => {
        if (r.exitCode !== 0) await git(repo, ['checkout', '-q', '-b', branch]);
      });
      const path = join(repo, file);
      writeFileSync(path, change(readFileSync(path, 'utf8')));
      const id = ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com'];
      expect((await git(repo, [...id, 'commit', '--quiet', '-am', `Change ${file}`])).exitCode).toBe(0);
      expect((await git(repo, ['push', '--quiet', 'origin', `HEAD:${branch}`], { auth })).exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const reviewers = () =>
    app.database.db
      .select({ id: agents.id, branch: agents.branch, status: agents.status })
      .from(agents)
      .where(eq(agents.purpose, 'review'));
  const settle = () => settleAll(app);
  const reviewsOf = (number: number) =>
    rest<{ id: number; body: string; user: { login: string } }[]>(
      'GET',
      `/repos/acme/webapp/pulls/${number}/reviews`,
    );

  it('reviews a pull request a person opens, with inline comments, and never pushes to it', async () => {
    await pushTo('feature-sub', (t) =>
      t.replace(
        'export function multiply',
        'export function subtract(a, b) {\n  return a - b;\n}\n\nexport function multiply',
      ),
    );
    const pr = await rest<{ number: number }>('POST', '/repos/acme/webapp/pulls', {
      title: 'Add subtract',
      head: 'feature-sub',
      base: 'main',
      body: 'Adds subtract(a, b).',
    });
    await settle();

    const [reviewer] = await reviewers();
    expect(reviewer).toMatchObject({ branch: 'feature-sub', status: 'paused' });
    const reviews = await reviewsOf(pr.number);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({
      body: 'subtract looks right; it needs a test.',
      user: { login: 'tandem[bot]' },
    });
    const comments = await rest<{ path: string; line: number; body: string }[]>(
      'GET',
      `/repos/acme/webapp/pulls/${pr.number}/reviews/${reviews[0]!.id}/comments`,
    );
    expect(comments).toEqual([
      expect.objectContaining({ path: 'src/math.js', line: 5, body: 'Add a test for subtract.' }),
    ]);
    // Its push was refused as an unknown tool, and the branch is still ada's commit alone.
    const results = await app.database.db
      .select({ content: spiceMessages.content })
      .from(spiceMessages)
      .where(eq(spiceMessages.agentId, reviewer!.id));
    expect(JSON.stringify(results)).toMatch(
      /unavailable tool 'commit_and_push'|Unknown tool commit_and_push/,
    );
    // The pull request reached the reviewer once, as its first message.
    expect(JSON.stringify(results).match(/Adds subtract\(a, b\)/g)).toHaveLength(1);
    const branch = await rest<{ commit: { commit: { message: string } } }>(
      'GET',
      '/repos/acme/webapp/branches/feature-sub',
    );
    expect(branch.commit.commit.message).toBe('Change src/math.js');

    // ada pushes again: the reviewer reviews the new commits.
    await pushTo('feature-sub', (t) => `${t}\n// subtract is tested\n`, 'test/math.test.js');
    await settle();
    const after = await reviewsOf(pr.number);
    expect(after.map((r) => r.body)).toEqual([
      'subtract looks right; it needs a test.',
      'The new commit adds the test. Thanks!',
    ]);
    expect(await reviewers()).toHaveLength(1);
  });

  it('does not review drafts', async () => {
    await pushTo('draft-work', (t) => `${t}\n// draft\n`);
    await rest('POST', '/repos/acme/webapp/pulls', {
      title: 'WIP',
      head: 'draft-work',
      base: 'main',
      draft: true,
    });
    await settle();
    expect(await reviewers()).toHaveLength(1);
  });
});
