import { Octokit } from '@octokit/rest';
import { webhookPayloadSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneOverHttp, type Clone } from '../testing/git-clone.js';
import { startPagesHarness, type PagesHarness } from '../testing/pages-harness.js';
import { processRunner } from './command-runner.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const repo = { owner: 'acme', repo: 'webapp' };
const REFUSAL =
  'refusing to allow a GitHub App to create or update workflow `.github/workflows/ci.yml` without `workflows` permission';

/**
 * The local CI end to end: real pushes over git smart HTTP, the seeded workflow's `npm test` run
 * for real (the unsandboxed runner here; apps/server's local-ci test runs it in bubblewrap), and
 * the results read back over REST, webhooks and pages.
 */
describe('local CI', () => {
  let h: PagesHarness;
  let ada: Octokit;
  let clone: Clone;

  beforeAll(async () => {
    h = await startPagesHarness({ ci: { runner: processRunner, jobTimeoutMs: 60_000 } });
    const token = await h.host.issueUserToken('ada');
    ada = new Octokit({ baseUrl: h.host.apiUrl, auth: token, log: silent });
    clone = await cloneOverHttp(h.host.url, 'acme/webapp', token);
  });
  afterAll(async () => {
    await clone?.remove();
    await h?.close();
  });

  const settle = async () => {
    await h.host.ciIdle();
    await h.host.webhooksIdle();
  };
  const runsOf = async (sha: string) =>
    (await ada.rest.actions.listWorkflowRunsForRepo({ ...repo, head_sha: sha })).data.workflow_runs;
  const jobsOf = async (runId: number) =>
    (await ada.rest.actions.listJobsForWorkflowRun({ ...repo, run_id: runId })).data.jobs;

  it('runs the workflow of a pushed commit and reports success, with webhooks in order', async () => {
    const push = await clone.commitAndPush('ci-pass', { 'README.md': '# webapp\n\nPassing.\n' }, 'Passing');
    expect(push.code).toBe(0);
    await settle();
    const [run, ...others] = await runsOf(push.sha);
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      name: 'CI',
      event: 'push',
      head_branch: 'ci-pass',
      status: 'completed',
      conclusion: 'success',
      run_number: expect.any(Number),
    });
    const [job] = await jobsOf(run!.id);
    expect(job).toMatchObject({ name: 'Test', status: 'completed', conclusion: 'success' });
    expect(job!.steps!.map((s) => [s.name, s.conclusion])).toEqual([
      ['Run actions/checkout@v4', 'success'],
      ['Run actions/setup-node@v4', 'success'],
      ['Run the tests', 'success'],
    ]);

    const events = h.receiver.deliveries.filter(
      (d) =>
        d.event === 'workflow_run' &&
        (d.payload as { workflow_run: { id: number } }).workflow_run.id === run!.id,
    );
    expect(events.map((d) => (d.payload as { action: string }).action)).toEqual([
      'requested',
      'in_progress',
      'completed',
    ]);
    for (const d of events)
      expect(webhookPayloadSchema('workflow_run').safeParse(d.payload).error).toBeUndefined();
    expect(events.at(-1)!.payload).toMatchObject({
      installation: { id: 1000 },
      workflow_run: { head_sha: push.sha, status: 'completed', conclusion: 'success' },
    });
    // The push's own event comes first, as on GitHub.
    const pushIndex = h.receiver.deliveries.findIndex(
      (d) => d.event === 'push' && (d.payload as { after: string }).after === push.sha,
    );
    expect(pushIndex).toBeGreaterThanOrEqual(0);
    expect(pushIndex).toBeLessThan(h.receiver.deliveries.indexOf(events[0]!));
  });

  it('reports a failing test as a failure, with its output in the log over REST', async () => {
    const failing = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from '../src/math.js';

test('add is broken on purpose', () => {
  assert.equal(add(2, 3), 6);
});
`;
    const pullWorkflow = `name: Pull request checks
on: pull_request
jobs:
  test:
    steps:
      - run: npm test
`;
    const push = await clone.commitAndPush(
      'ci-fail',
      { 'test/math.test.js': failing, '.github/workflows/pr.yml': pullWorkflow },
      'Break a test',
    );
    expect(push.code).toBe(0);
    await settle();
    // Only the push workflow: the other waits for a pull request.
    const [run, ...others] = await runsOf(push.sha);
    expect(others).toEqual([]);
    expect(run).toMatchObject({ name: 'CI', status: 'completed', conclusion: 'failure' });
    const [job] = await jobsOf(run!.id);
    expect(job).toMatchObject({ conclusion: 'failure' });
    expect(job!.steps!.find((s) => s.conclusion === 'failure')?.name).toBe('Run the tests');
    const log = await ada.rest.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: job!.id });
    expect(String(log.data)).toContain('add is broken on purpose');
    expect(String(log.data)).toContain('##[error]Process completed with exit code 1.');

    // The redirect's link is signed: without (or with a forged) token it is refused.
    const bare = await fetch(`${h.host.url}/_actions/jobs/${job!.id}/log?token=1.abc`);
    expect(bare.status).toBe(403);

    // A pull request runs its `pull_request` workflows too, and its page lists the head's runs.
    const pull = await ada.rest.pulls.create({
      ...repo,
      title: 'Break a test',
      head: 'ci-fail',
      base: 'main',
    });
    await settle();
    expect((await runsOf(push.sha)).map((r) => [r.event, r.conclusion]).sort()).toEqual([
      ['pull_request', 'failure'],
      ['push', 'failure'],
    ]);
    const bob = await h.signIn('bob');
    const page = await h.get(`/acme/webapp/pull/${pull.data.number}`, bob);
    expect(page.text).toContain('<h2 id="checks-heading">Checks</h2>');
    expect(page.text).toContain(`href="/acme/webapp/actions/runs/${run!.id}">CI #${run!.run_number}</a>`);
    expect(page.text).toContain('<strong>Failed</strong>');
    const runPage = await h.get(`/acme/webapp/actions/runs/${run!.id}`, bob);
    expect(runPage.status).toBe(200);
    expect(runPage.text).toContain('<h2 id="job-');
    expect(runPage.text).toContain('add is broken on purpose');
  });

  it('honours env and working-directory, skips other actions, and escapes logs on the page', async () => {
    const workflow = `name: Lint
on: [push]
env:
  GREETING: hello
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/cache@v4
      - name: Greet
        working-directory: src
        env:
          WHO: the local CI
        run: |
          echo "$GREETING from $(basename "$PWD") and $WHO"
          echo '<script>alert(1)</script>'
`;
    const push = await clone.commitAndPush('ci-lint', { '.github/workflows/lint.yml': workflow }, 'Add lint');
    // A person may change workflows.
    expect(push.code).toBe(0);
    await settle();
    const run = (await runsOf(push.sha)).find((r) => r.name === 'Lint');
    expect(run).toMatchObject({ conclusion: 'success' });
    const [job] = await jobsOf(run!.id);
    expect(job!.steps!.map((s) => [s.name, s.conclusion])).toEqual([
      ['Run actions/cache@v4', 'skipped'],
      ['Greet', 'success'],
    ]);
    const log = String(
      (await ada.rest.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: job!.id })).data,
    );
    expect(log).toContain('hello from src and the local CI');
    expect(log).toContain('Skipped: the local CI runs only run: steps');
    const page = await h.get(`/acme/webapp/actions/runs/${run!.id}`, await h.signIn('bob'));
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>alert(1)');
  });

  it("refuses an App's push that changes workflows, with GitHub's message, and takes its other pushes", async () => {
    const bot = await cloneOverHttp(h.host.url, 'acme/webapp', await h.host.issueInstallationToken(1000));
    try {
      const fine = await bot.commitAndPush('bot-fine', { 'notes.txt': 'fine\n' }, 'Notes');
      expect(fine.code).toBe(0);
      const refused = await bot.commitAndPush(
        'bot-fine',
        { '.github/workflows/ci.yml': 'name: Owned\non: push\njobs: {}\n' },
        'Change CI',
      );
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(REFUSAL);
      // A new branch carrying a workflow change is refused the same way.
      const fresh = await bot.commitAndPush('bot-new', { 'x.txt': 'x\n' }, 'More');
      expect(fresh.code).not.toBe(0);
      expect(fresh.output).toContain(REFUSAL);
      const branches = (await ada.rest.repos.listBranches(repo)).data.map((b) => b.name);
      expect(branches).toContain('bot-fine');
      expect(branches).not.toContain('bot-new');
    } finally {
      await bot.remove();
    }
    await settle();
  });
});
