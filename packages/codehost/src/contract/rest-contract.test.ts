import { createRequire } from 'node:module';
import { Octokit } from '@octokit/rest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processRunner } from '../ci/command-runner.js';
import { startPagesHarness, type PagesHarness } from '../testing/pages-harness.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** GitHub's response schemas of the operations the product calls, pinned (scripts/extract-openapi.mjs). */
const openapi = createRequire(import.meta.url)('./github-rest-openapi.json') as {
  source: string;
  operations: Record<string, { operationId: string; responses: Record<string, unknown> }>;
  components: { schemas: Record<string, unknown> };
};

interface Seen {
  key: string;
  status: number;
  data: unknown;
}

/**
 * The code host's REST answers against GitHub's OpenAPI description: every operation the product
 * calls is made here through Octokit, as the product makes it, and each 2xx body must validate
 * against the description's schema for that operation and status.
 */
describe(`code host REST answers match GitHub's OpenAPI description`, () => {
  let h: PagesHarness;
  const seen: Seen[] = [];
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  addFormats.default(ajv);
  const keys = Object.keys(openapi.operations);
  ajv.addSchema(
    {
      components: openapi.components,
      operations: keys.map((key) => openapi.operations[key]!.responses),
    },
    'github',
  );

  /** An Octokit whose every answer is recorded under its operation ("METHOD /template"). */
  function client(auth: string) {
    const octokit = new Octokit({ baseUrl: h.host.apiUrl, auth, log: silent });
    octokit.hook.after('request', (response, options) => {
      seen.push({ key: `${options.method} ${options.url}`, status: response.status, data: response.data });
    });
    return octokit;
  }

  beforeAll(async () => {
    h = await startPagesHarness({ ci: { runner: processRunner } });
    const { host } = h;
    const key = await importPKCS8(host.credentials.privateKey, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(String(host.credentials.appId))
      .setIssuedAt(now - 30)
      .setExpirationTime(now + 540)
      .sign(key);
    const app = client(jwt);
    const bot = client(await host.issueInstallationToken(1000));
    const bob = client(await host.issueUserToken('bob'));
    const repo = { owner: 'acme', repo: 'webapp' };

    await app.rest.apps.listInstallations();
    await app.rest.apps.getInstallation({ installation_id: 1000 });
    await app.rest.apps.createInstallationAccessToken({ installation_id: 1000 });
    await bob.rest.users.getAuthenticated();
    await bot.rest.users.getByUsername({ username: 'bob' });
    await bob.rest.apps.listInstallationsForAuthenticatedUser();
    await bob.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: 1000 });
    await bob.rest.orgs.getMembershipForAuthenticatedUser({ org: 'acme' });
    await bob.rest.repos.createUsingTemplate({
      template_owner: 'tandem-templates',
      template_repo: 'javascript-starter',
      owner: 'bob',
      name: 'contract-starter',
    });

    await bot.rest.repos.get(repo);
    await bot.rest.repos.getContent({ ...repo, path: 'README.md' });
    await bot.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'bob' });
    await bot.rest.repos.getCommit({ ...repo, ref: 'main' });
    const pullWorkflow = 'on: pull_request\njobs:\n  check:\n    steps:\n      - run: echo checked\n';
    const head = await h.commit(
      'acme/webapp',
      'contract-rest',
      { 'r.txt': 'r\n', '.github/workflows/pr.yml': pullWorkflow },
      'Add r',
    );
    await bot.rest.repos.compareCommitsWithBasehead({ ...repo, basehead: 'main...contract-rest' });

    const issue = await bot.rest.issues.create({ ...repo, title: 'REST contract', body: 'Body' });
    await bot.rest.issues.get({ ...repo, issue_number: issue.data.number });
    await bot.rest.issues.update({ ...repo, issue_number: issue.data.number, title: 'REST contract!' });
    const comment = await bob.rest.issues.createComment({
      ...repo,
      issue_number: issue.data.number,
      body: 'Hi',
    });
    await bot.rest.issues.listComments({ ...repo, issue_number: issue.data.number });
    await bot.rest.reactions.createForIssue({ ...repo, issue_number: issue.data.number, content: 'eyes' });
    await bot.rest.reactions.createForIssueComment({ ...repo, comment_id: comment.data.id, content: 'eyes' });

    const pull = await bot.rest.pulls.create({
      ...repo,
      title: 'Add r',
      head: 'contract-rest',
      base: 'main',
    });
    // Opening it ran the head's pull_request workflow (the local CI): read it as the product does.
    await host.ciIdle();
    const runs = await bot.rest.actions.listWorkflowRunsForRepo({ ...repo, head_sha: head });
    expect(runs.data.total_count).toBeGreaterThan(0);
    const runId = runs.data.workflow_runs[0]!.id;
    await bot.rest.actions.getWorkflowRun({ ...repo, run_id: runId });
    await bot.rest.actions.listJobsForWorkflowRun({ ...repo, run_id: runId });
    await bot.rest.checks.listForRef({ ...repo, ref: head });
    await bot.rest.pulls.get({ ...repo, pull_number: pull.data.number });
    await bot.rest.pulls.update({ ...repo, pull_number: pull.data.number, body: 'Adds r.' });
    await bot.rest.pulls.list({ ...repo, state: 'open' });
    await bot.rest.pulls.listCommits({ ...repo, pull_number: pull.data.number });
    await bot.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: head });
    const review = await bob.rest.pulls.createReview({
      ...repo,
      pull_number: pull.data.number,
      event: 'COMMENT',
      body: 'Review',
      comments: [{ path: 'r.txt', line: 1, side: 'RIGHT', body: 'Inline' }],
    });
    const inline = await bot.rest.pulls.listCommentsForReview({
      ...repo,
      pull_number: pull.data.number,
      review_id: review.data.id,
    });
    await bot.rest.reactions.createForPullRequestReviewComment({
      ...repo,
      comment_id: inline.data[0]!.id,
      content: 'eyes',
    });
  });
  afterAll(async () => h?.close());

  // The fixture holds exactly the operations the product calls (scripts/extract-openapi.mjs).
  it.each(Object.keys(openapi.operations))('%s', (key) => {
    const answers = seen.filter((s) => s.key === key);
    expect(answers.length, `the test never called ${key}`).toBeGreaterThan(0);
    for (const answer of answers) {
      const validate = ajv.getSchema(`github#/operations/${keys.indexOf(key)}/${answer.status}`);
      expect(validate, `${key} answered ${answer.status}, which GitHub does not document`).toBeDefined();
      const errors = validate!(answer.data)
        ? []
        : (validate!.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
      expect(errors).toEqual([]);
    }
  });
});
