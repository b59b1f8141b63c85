import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagesHarness, type PagesHarness } from '../testing/pages-harness.js';

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe('code host pages: pull requests and issues', () => {
  let h: PagesHarness;
  let octokit: Octokit;
  let bob: string;
  const repo = { owner: 'acme', repo: 'webapp' };
  /** Webhooks of one event delivered since `from`. */
  const events = async (from: number, event: string) => {
    await h.host.webhooksIdle();
    return h.receiver.deliveries.slice(from).filter((d) => d.event === event);
  };
  const stored = () =>
    JSON.parse(readFileSync(join(h.dataDir, 'store.json'), 'utf8')) as {
      issues: { repo: string; number: number; state: string; comments: { body: string }[] }[];
    };
  const thread = (number: number) =>
    stored().issues.find((i) => i.repo === 'acme/webapp' && i.number === number)!;

  beforeAll(async () => {
    h = await startPagesHarness();
    octokit = new Octokit({
      baseUrl: h.host.apiUrl,
      auth: await h.host.issueInstallationToken(1000),
      log: silent,
    });
    bob = await h.signIn('bob');
    await h.commit('acme/webapp', 'feature-a', { 'a.txt': 'a\n' }, 'Add a');
    await octokit.rest.pulls.create({
      ...repo,
      title: 'Add a',
      head: 'feature-a',
      base: 'main',
      body: '## Why\n\n| x | y |\n| - | - |\n| 1 | 2 |\n\n<script>alert(1)</script> [bad](javascript:alert(1))',
    });
  });
  afterAll(async () => h?.close());

  it('renders the conversation as sanitised Markdown, with tabs for commits and files', async () => {
    const page = await h.get('/acme/webapp/pull/4', bob);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2>Why</h2>');
    expect(page.text).toContain('<td>1</td>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toMatch(/<script|href="javascript/i);
    expect(page.text).toContain('<button type="submit">Merge pull request</button>');
    expect((await h.get('/acme/webapp/pull/4/commits', bob)).text).toContain('Add a</a>');
    expect((await h.get('/acme/webapp/pull/4/files', bob)).text).toContain('<td>+a</td>');
    // Issue and pull request URLs send each other to the right place.
    expect((await h.get('/acme/webapp/issues/4', bob)).headers.get('location')).toBe('/acme/webapp/pull/4');
    expect((await h.get('/acme/webapp/pull/1', bob)).headers.get('location')).toBe('/acme/webapp/issues/1');
    expect((await h.get('/acme/webapp/pull/99', bob)).status).toBe(404);
    expect((await h.get('/acme/webapp/pull/abc', bob)).status).toBe(404);
  });

  it('comments from the form: Origin, sign-in, access and a body are required; issue_comment fires', async () => {
    const from = h.receiver.deliveries.length;
    const path = '/acme/webapp/pull/4/comments';
    expect((await h.post(path, { body: 'forged' }, { cookie: bob, origin: 'http://evil.test' })).status).toBe(
      403,
    );
    expect((await h.post(path, { body: 'forged' }, { cookie: bob, origin: null })).status).toBe(403);
    const signedOut = await h.post(path, { body: 'anon' });
    expect(signedOut.status).toBe(401);
    expect(signedOut.text).toContain('Sign in');
    // eve cannot see the private repository: 404, as GitHub.
    expect((await h.post(path, { body: 'eve' }, { cookie: await h.signIn('eve') })).status).toBe(404);
    expect((await h.post(path, { body: '   ' }, { cookie: bob })).status).toBe(422);
    expect((await h.post(path, { body: 'x'.repeat(70_000) }, { cookie: bob })).status).toBe(422);
    expect((await h.post('/acme/webapp/pull/99/comments', { body: 'x' }, { cookie: bob })).status).toBe(404);
    expect(thread(4).comments).toEqual([]);
    expect(await events(from, 'issue_comment')).toEqual([]);

    const ok = await h.post(path, { body: 'Looks **good**' }, { cookie: bob });
    expect(ok.status).toBe(303);
    expect(ok.location).toMatch(/^\/acme\/webapp\/pull\/4#issuecomment-\d+$/);
    expect((await h.get('/acme/webapp/pull/4', bob)).text).toContain('Looks <strong>good</strong>');
    const [comment] = await events(from, 'issue_comment');
    expect(comment?.payload).toMatchObject({
      action: 'created',
      comment: { body: 'Looks **good**', user: { login: 'bob' } },
      issue: { number: 4, pull_request: {} },
      sender: { login: 'bob' },
      installation: { id: 1000 },
    });
  });

  it('lets any signed-in user comment on a public repository, but only writers close issues there', async () => {
    const ada = new Octokit({
      baseUrl: h.host.apiUrl,
      auth: await h.host.issueUserToken('ada'),
      log: silent,
    });
    await ada.rest.issues.create({ owner: 'ada', repo: 'playground', title: 'Public issue' });
    const eve = await h.signIn('eve');
    expect((await h.post('/ada/playground/issues/1/comments', { body: 'Hi' }, { cookie: eve })).status).toBe(
      303,
    );
    const refused = await h.post('/ada/playground/issues/1/close', {}, { cookie: eve });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('write access');
    const page = await h.get('/ada/playground/issues/1', eve);
    expect(page.text).not.toContain('Close issue');
  });

  it('merges from the page with the REST merge logic and webhook; a second merge says why not', async () => {
    const from = h.receiver.deliveries.length;
    expect((await h.post('/acme/webapp/pull/4/merge', {}, { cookie: await h.signIn('eve') })).status).toBe(
      404,
    );
    expect((await h.post('/acme/webapp/pull/4/merge', {}, { cookie: bob, origin: null })).status).toBe(403);
    const merged = await h.post('/acme/webapp/pull/4/merge', {}, { cookie: bob });
    expect(merged.status).toBe(303);
    expect(merged.location).toBe('/acme/webapp/pull/4');
    const { data } = await octokit.rest.pulls.get({ ...repo, pull_number: 4 });
    expect(data).toMatchObject({ merged: true, state: 'closed' });
    const main = await octokit.rest.repos.getBranch({ ...repo, branch: 'main' });
    expect(main.data.commit.commit.message).toBe('Merge pull request #4 from acme/feature-a');
    const [closed] = await events(from, 'pull_request');
    expect(closed?.payload).toMatchObject({
      action: 'closed',
      number: 4,
      pull_request: { merged: true, state: 'closed' },
      sender: { login: 'bob' },
    });
    const page = await h.get('/acme/webapp/pull/4', bob);
    expect(page.text).toContain('<strong>Merged</strong>');
    expect(page.text).not.toContain('Reopen pull request');

    const again = await h.post('/acme/webapp/pull/4/merge', {}, { cookie: bob });
    expect(again.status).toBe(409);
    expect(again.text).toContain('This pull request is already merged.');
    expect((await h.post('/acme/webapp/pull/4/reopen', {}, { cookie: bob })).status).toBe(422);
  });

  it('explains a merge conflict without merging, and closes and reopens a pull request', async () => {
    await h.commit('acme/webapp', 'left', { 'README.md': 'left\n' }, 'Left');
    await h.commit('acme/webapp', 'right', { 'README.md': 'right\n' }, 'Right');
    await octokit.rest.pulls.create({ ...repo, title: 'Left', head: 'left', base: 'main' });
    await octokit.rest.pulls.merge({ ...repo, pull_number: 5 });
    await octokit.rest.pulls.create({ ...repo, title: 'Right', head: 'right', base: 'main' });
    const before = (await octokit.rest.repos.getBranch({ ...repo, branch: 'main' })).data.commit.sha;
    const page = await h.get('/acme/webapp/pull/6', bob);
    expect(page.text).toContain('This branch has conflicts');
    expect(page.text).not.toContain('Merge pull request</button>');
    const conflict = await h.post('/acme/webapp/pull/6/merge', {}, { cookie: bob });
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain('conflicts with the base branch');
    expect((await octokit.rest.repos.getBranch({ ...repo, branch: 'main' })).data.commit.sha).toBe(before);

    const from = h.receiver.deliveries.length;
    expect((await h.post('/acme/webapp/pull/6/close', {}, { cookie: bob })).status).toBe(303);
    expect((await h.post('/acme/webapp/pull/6/merge', {}, { cookie: bob })).text).toContain(
      'This pull request is closed.',
    );
    expect((await h.post('/acme/webapp/pull/6/reopen', {}, { cookie: bob })).status).toBe(303);
    const actions = (await events(from, 'pull_request')).map((d) => [
      d.payload.action,
      (d.payload.pull_request as { merged: boolean }).merged,
    ]);
    expect(actions).toEqual([
      ['closed', false],
      ['reopened', false],
    ]);
  });

  it('closes and reopens an issue with the issues webhook, and refuses without Origin', async () => {
    const from = h.receiver.deliveries.length;
    expect((await h.post('/acme/webapp/issues/2/close', {}, { cookie: bob, origin: null })).status).toBe(403);
    expect((await h.post('/acme/webapp/issues/2/close', {})).status).toBe(401);
    expect(thread(2).state).toBe('open');
    const closed = await h.post('/acme/webapp/issues/2/close', {}, { cookie: bob });
    expect(closed.status).toBe(303);
    expect(closed.location).toBe('/acme/webapp/issues/2');
    expect(thread(2).state).toBe('closed');
    expect((await h.get('/acme/webapp/issues/2', bob)).text).toContain('Reopen issue');
    // Closing twice changes nothing and fires nothing more.
    expect((await h.post('/acme/webapp/issues/2/close', {}, { cookie: bob })).status).toBe(303);
    expect((await h.post('/acme/webapp/issues/2/reopen', {}, { cookie: bob })).status).toBe(303);
    const issues = await events(from, 'issues');
    expect(issues.map((d) => d.payload.action)).toEqual(['closed', 'reopened']);
    expect(issues[0]?.payload).toMatchObject({ issue: { number: 2 }, sender: { login: 'bob' } });
    expect((await h.get('/acme/webapp/issues?state=closed', bob)).text).not.toContain('Greet should trim');
    expect((await h.get('/acme/webapp/issues', bob)).text).toContain('Greet should trim');
  });

  it('opens an issue from the New issue page for writers only; issues opened fires', async () => {
    const from = h.receiver.deliveries.length;
    const list = await h.get('/acme/webapp/issues', bob);
    expect(list.text).toContain('href="/acme/webapp/issues/new"');
    const form = await h.get('/acme/webapp/issues/new', bob);
    expect(form.status).toBe(200);
    expect(form.text).toContain('aria-label="New issue"');
    // Signed out, the private repository does not exist (as on GitHub); eve cannot see it either.
    expect((await h.get('/acme/webapp/issues/new')).status).toBe(404);
    expect((await h.get('/acme/webapp/issues/new', await h.signIn('eve'))).status).toBe(404);
    expect(
      (await h.post('/acme/webapp/issues', { title: 'x' }, { cookie: bob, origin: 'http://evil.test' }))
        .status,
    ).toBe(403);
    expect((await h.post('/acme/webapp/issues', { title: '  ' }, { cookie: bob })).status).toBe(422);
    expect((await h.post('/acme/webapp/issues', { title: 'x'.repeat(300) }, { cookie: bob })).status).toBe(
      422,
    );
    expect(await events(from, 'issues')).toEqual([]);

    const ok = await h.post(
      '/acme/webapp/issues',
      { title: 'Broken link', body: 'On the home page.' },
      { cookie: bob },
    );
    expect(ok.status).toBe(303);
    const number = Number(/\/acme\/webapp\/issues\/(\d+)$/.exec(ok.location ?? '')?.[1]);
    expect(thread(number)).toMatchObject({ state: 'open', comments: [] });
    const [opened] = await events(from, 'issues');
    expect(opened?.payload).toMatchObject({
      action: 'opened',
      issue: { number, title: 'Broken link', body: 'On the home page.', user: { login: 'bob' } },
    });
  });
});
