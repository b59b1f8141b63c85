import { createRequire } from 'node:module';
import { Octokit } from '@octokit/rest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processRunner } from '../ci/command-runner.js';
import { startPagesHarness, type PagesHarness } from '../testing/pages-harness.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const schema = createRequire(import.meta.url)('@octokit/webhooks-schemas/schema.json') as {
  definitions: Record<string, unknown>;
};

/**
 * The code host's webhook payloads against GitHub's official webhook schemas
 * (@octokit/webhooks-schemas, pinned): the product's handlers key on these payloads, so the
 * stand-in must not be kinder than github.com. Every event the product handles is produced here
 * the way people and agents produce it, and each payload must validate as `{event}${action}`.
 */
describe('code host webhooks match GitHub webhook schemas', () => {
  let h: PagesHarness;
  let octokit: Octokit;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(schema, 'webhooks');

  beforeAll(async () => {
    // With the local CI: the merge's push runs acme/webapp's workflow (workflow_run events).
    h = await startPagesHarness({ ci: { runner: processRunner } });
    octokit = new Octokit({ baseUrl: h.host.apiUrl, auth: await h.host.issueUserToken('ada'), log: silent });
    const repo = { owner: 'acme', repo: 'webapp' };
    const issue = await octokit.rest.issues.create({ ...repo, title: 'Contract', body: 'Body' });
    await octokit.rest.issues.createComment({ ...repo, issue_number: issue.data.number, body: 'A comment' });
    // The App's own comment: its sender is the bot account, which must validate too.
    const app = new Octokit({
      baseUrl: h.host.apiUrl,
      auth: await h.host.issueInstallationToken(1000),
      log: silent,
    });
    await app.rest.issues.createComment({ ...repo, issue_number: issue.data.number, body: 'From the bot' });
    await octokit.rest.issues.update({
      ...repo,
      issue_number: issue.data.number,
      title: 'Contract, renamed',
    });
    await octokit.rest.issues.update({ ...repo, issue_number: issue.data.number, state: 'closed' });
    await octokit.rest.issues.update({ ...repo, issue_number: issue.data.number, state: 'open' });
    await h.commit('acme/webapp', 'contract', { 'c.txt': 'c\n' }, 'Add c');
    const pull = await octokit.rest.pulls.create({ ...repo, title: 'Add c', head: 'contract', base: 'main' });
    await octokit.rest.pulls.update({ ...repo, pull_number: pull.data.number, body: 'Adds c.' });
    const [file] = (await octokit.rest.pulls.listFiles({ ...repo, pull_number: pull.data.number })).data;
    await octokit.rest.pulls.createReview({
      ...repo,
      pull_number: pull.data.number,
      event: 'COMMENT',
      body: 'Review',
      comments: [{ path: file!.filename, line: 1, side: 'RIGHT', body: 'Inline' }],
    });
    await octokit.rest.pulls.merge({ ...repo, pull_number: pull.data.number });
    // ada (acme's admin) adds a repository to the installed organisation.
    await octokit.rest.repos.createInOrg({ org: 'acme', name: 'contract-added' });
    // eve installs the App from the install page.
    const eve = await h.signIn('eve');
    const installed = await h.post('/apps/tandem/installations', { account: 'eve' }, { cookie: eve });
    expect(installed.status).toBeLessThan(400);
    await h.host.ciIdle();
    await h.host.webhooksIdle();
  });
  afterAll(async () => h?.close());

  it('refuses a pull request without commits, as GitHub does', async () => {
    await expect(
      octokit.rest.pulls.create({
        owner: 'acme',
        repo: 'webapp',
        title: 'Nothing',
        head: 'main',
        base: 'main',
      }),
    ).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining('No commits between main and main'),
    });
  });

  it('says what an edit changed and names the hook on every delivery', () => {
    const edited = h.receiver.deliveries.find(
      (d) => d.event === 'issues' && (d.payload as { action: string }).action === 'edited',
    );
    expect(edited?.payload).toMatchObject({ changes: { title: { from: 'Contract' } } });
    for (const d of h.receiver.deliveries) {
      expect(d.headers['x-github-hook-installation-target-type']).toBe('integration');
      expect(d.headers['x-github-hook-id']).toMatch(/^\d+$/);
      expect(d.headers['x-github-hook-installation-target-id']).toMatch(/^\d+$/);
    }
  });

  it('sends the bot as a Bot account', () => {
    const fromBot = h.receiver.deliveries.find(
      (d) =>
        d.event === 'issue_comment' &&
        (d.payload as { comment: { body: string } }).comment.body === 'From the bot',
    );
    expect((fromBot?.payload as { sender: unknown }).sender).toMatchObject({
      type: 'Bot',
      login: expect.stringMatching(/\[bot\]$/),
    });
  });

  const HANDLED = [
    'issues$opened',
    'issues$edited',
    'issues$closed',
    'issues$reopened',
    'issue_comment$created',
    'pull_request$opened',
    'pull_request$edited',
    'pull_request$closed',
    'pull_request_review$submitted',
    'pull_request_review_comment$created',
    // The merge through the API moves main: GitHub sends its push.
    'push$event',
    'installation$created',
    'installation_repositories$added',
    'workflow_run$requested',
    'workflow_run$in_progress',
    'workflow_run$completed',
  ];

  it.each(HANDLED)('%s', (name) => {
    const [event, action] = name.split('$');
    const delivered = h.receiver.deliveries.filter(
      (d) => d.event === event && (event === 'push' || (d.payload as { action?: string }).action === action),
    );
    expect(delivered.length, `no ${name} delivery was produced`).toBeGreaterThan(0);
    const validate = ajv.getSchema(`webhooks#/definitions/${name}`);
    expect(validate, `no schema for ${name}`).toBeDefined();
    for (const d of delivered) {
      const ok = validate!(d.payload);
      const errors = (validate!.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
      expect(ok ? [] : errors).toEqual([]);
    }
  });
});
