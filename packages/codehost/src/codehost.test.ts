import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Octokit } from '@octokit/rest';
import { verify } from '@octokit/webhooks-methods';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCodeHost, type RunningCodeHost } from './index.js';
import { startWebhookReceiver } from './testing/webhook-receiver.js';

const run = promisify(execFile);
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe('local code host', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'codehost-'));
  const work = mkdtempSync(join(tmpdir(), 'codehost-work-'));
  let host: RunningCodeHost;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const api = (token?: string) => new Octokit({ baseUrl: host.apiUrl, auth: token, log: silent });
  const gitUrl = (repo: string, token: string) =>
    `${host.url.replace('://', `://x-access-token:${token}@`)}/${repo}.git`;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    host = await startCodeHost({
      dataDir,
      port: 0,
      webhookUrl: receiver.url,
      setupUrl: 'http://product.test/installations',
      webhookRetryDelaysMs: [10, 20, 40],
    });
  });
  afterAll(async () => {
    await host?.close();
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('signs a user in through OAuth: picker page, single-use code, token', async () => {
    const authorize = `${host.url}/login/oauth/authorize?client_id=${host.credentials.clientId}&redirect_uri=${encodeURIComponent('http://product.test/cb')}&state=s1`;
    const pageHtml = await (await fetch(authorize)).text();
    for (const login of ['ada', 'bob', 'eve']) expect(pageHtml).toContain(`Sign in as ${login}`);

    const chosen = await fetch(`${host.url}/login/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: host.credentials.clientId,
        redirect_uri: 'http://product.test/cb',
        state: 's1',
        login: 'bob',
      }),
    });
    expect(chosen.status).toBe(302);
    const location = new URL(chosen.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://product.test/cb');
    expect(location.searchParams.get('state')).toBe('s1');

    const exchange = () =>
      fetch(`${host.url}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: host.credentials.clientId,
          client_secret: host.credentials.clientSecret,
          code: location.searchParams.get('code'),
        }),
      }).then((r) => r.json() as Promise<Record<string, string>>);
    const first = await exchange();
    expect(first.access_token).toMatch(/^ghu_/);
    expect((await api(first.access_token).rest.users.getAuthenticated()).data.login).toBe('bob');
    expect(await exchange()).toMatchObject({ error: 'bad_verification_code' });
  });

  it('reports each user their installations and organisation roles', async () => {
    const installationsOf = async (login: string) => {
      const { data } = await api(
        await host.issueUserToken(login),
      ).rest.apps.listInstallationsForAuthenticatedUser();
      return data.installations.map((i) => (i.account && 'login' in i.account ? i.account.login : '')).sort();
    };
    expect(await installationsOf('ada')).toEqual(['acme', 'ada']);
    expect(await installationsOf('bob')).toEqual(['acme']);
    expect(await installationsOf('eve')).toEqual([]);
    const bob = api(await host.issueUserToken('bob'));
    expect((await bob.rest.orgs.getMembershipForAuthenticatedUser({ org: 'acme' })).data.role).toBe('member');
    const ada = api(await host.issueUserToken('ada'));
    expect((await ada.rest.orgs.getMembershipForAuthenticatedUser({ org: 'acme' })).data.role).toBe('admin');
    const repos = await ada.rest.apps.listInstallationReposForAuthenticatedUser({ installation_id: 1000 });
    expect(repos.data.repositories.map((r) => r.full_name).sort()).toEqual(['acme/api', 'acme/webapp']);
    await expect(api('ghu_nope').rest.users.getAuthenticated()).rejects.toMatchObject({ status: 401 });
  });

  it('exchanges an App JWT for an installation token and refuses a forged one', async () => {
    const key = await importPKCS8(host.credentials.privateKey, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(String(host.credentials.appId))
      .setIssuedAt(now - 30)
      .setExpirationTime(now + 540)
      .sign(key);
    const { data } = await api(jwt).rest.apps.createInstallationAccessToken({ installation_id: 1000 });
    expect(data.token).toMatch(/^ghs_/);
    const repos = await api(data.token).rest.apps.listReposAccessibleToInstallation();
    expect(repos.data.repositories.map((r) => r.full_name).sort()).toEqual(['acme/api', 'acme/webapp']);
    await expect(
      api('eyJhbGciOiJSUzI1NiJ9.e30.c2ln').rest.apps.createInstallationAccessToken({ installation_id: 1000 }),
    ).rejects.toMatchObject({ status: 401 });
  });

  it('serves git over HTTP: clone with an installation token, refuse a bad push, announce a good one', async () => {
    const token = await host.issueInstallationToken(1000);
    const clone = join(work, 'webapp');
    await run('git', ['clone', '--quiet', gitUrl('acme/webapp', token), clone]);
    const tests = await run('node', ['--test'], { cwd: clone });
    expect(tests.stdout).toMatch(/# pass 3/);

    writeFileSync(join(clone, 'NOTES.md'), 'notes\n');
    await run('git', ['-C', clone, 'checkout', '-q', '-b', 'tandem-1']);
    await run('git', ['-C', clone, 'add', '.']);
    await run('git', [
      '-C',
      clone,
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@t',
      'commit',
      '-qm',
      'Add notes',
    ]);
    await expect(
      run('git', ['-C', clone, 'push', '-q', gitUrl('acme/webapp', 'ghs_bad'), 'tandem-1']),
    ).rejects.toThrow();
    await expect(
      run('git', ['ls-remote', `${host.url}/acme/webapp.git`], {
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      }),
    ).rejects.toThrow();

    await run('git', ['-C', clone, 'push', '-q', gitUrl('acme/webapp', token), 'tandem-1']);
    await host.webhooksIdle();
    const push = receiver.deliveries.find(
      (d) => d.event === 'push' && (d.payload.ref as string) === 'refs/heads/tandem-1',
    );
    expect(push).toBeDefined();
    expect(await verify(host.credentials.webhookSecret, push!.body, push!.signature)).toBe(true);
    expect(push!.payload).toMatchObject({
      installation: { id: 1000 },
      repository: { full_name: 'acme/webapp' },
    });
  });

  it('answers the REST reads and writes the product uses through Octokit', async () => {
    const octokit = api(await host.issueInstallationToken(1000));
    const repo = { owner: 'acme', repo: 'webapp' };
    const { data: repoJson } = await octokit.rest.repos.get(repo);
    expect(repoJson.html_url).toBe(`${host.url}/acme/webapp`);
    expect(repoJson.owner.avatar_url).toBe(`${host.url}/avatars/acme.svg`);
    const readme = await octokit.rest.repos.getContent({ ...repo, path: 'README.md' });
    expect('content' in readme.data && Buffer.from(readme.data.content, 'base64').toString()).toContain(
      '# webapp',
    );
    await expect(octokit.rest.repos.getContent({ ...repo, path: 'missing.txt' })).rejects.toMatchObject({
      status: 404,
    });
    const branches = await octokit.rest.repos.listBranches(repo);
    expect(branches.data.map((b) => b.name).sort()).toEqual(['main', 'tandem-1']);
    const comparison = await octokit.rest.repos.compareCommitsWithBasehead({
      ...repo,
      basehead: 'main...tandem-1',
    });
    expect(comparison.data).toMatchObject({
      ahead_by: 1,
      behind_by: 0,
      files: [{ filename: 'NOTES.md', status: 'added', additions: 1 }],
    });

    const pr = await octokit.rest.pulls.create({
      ...repo,
      title: 'Add notes',
      head: 'tandem-1',
      base: 'main',
      body: 'Body',
    });
    expect(pr.data).toMatchObject({
      number: 4,
      state: 'open',
      commits: 1,
      mergeable: true,
      head: { ref: 'tandem-1' },
    });
    const issue = await octokit.rest.issues.get({ ...repo, issue_number: 1 });
    expect(issue.data.title).toBe('Add a subtract function');
    await octokit.rest.issues.createComment({ ...repo, issue_number: 1, body: 'On it' });
    const merged = await octokit.rest.pulls.merge({ ...repo, pull_number: 4 });
    expect(merged.data.merged).toBe(true);
    expect((await octokit.rest.pulls.get({ ...repo, pull_number: 4 })).data).toMatchObject({
      merged: true,
      state: 'closed',
    });
    const pulls = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: pr.data.head.sha,
    });
    expect(pulls.data.map((p) => p.number)).toEqual([4]);
    const permission = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: 'bob' });
    expect(permission.data.permission).toBe('write');
    const unknown = await fetch(`${host.apiUrl}/definitely/not/here`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: 'Not Found' });
  });

  it('pages branches newest first through GraphQL and lists script folders', async () => {
    const token = await host.issueInstallationToken(1000);
    const query = `query($cursor: String) { repository(owner: "acme", name: "webapp") {
      refs(refPrefix: "refs/heads/", first: 1, after: $cursor, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
        nodes { name target { ... on Commit { committedDate } } } pageInfo { hasNextPage endCursor } } } }`;
    const call = async (cursor: string | null) =>
      (
        await api(token).graphql<{
          repository: {
            refs: { nodes: { name: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
          };
        }>(query, { cursor, baseUrl: host.url + '/api' })
      ).repository.refs;
    const first = await call(null);
    expect(first.nodes).toHaveLength(1);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await call(first.pageInfo.endCursor);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect([first.nodes[0]!.name, second.nodes[0]!.name].sort()).toEqual(['main', 'tandem-1']);

    // As GitHub: no token is a 401, and a repository the caller cannot see is a NOT_FOUND error.
    const anonymous = await fetch(`${host.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ rateLimit { remaining } }' }),
    });
    expect(anonymous.status).toBe(401);
    const missing = await fetch(`${host.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `bearer ${token}` },
      body: JSON.stringify({ query: '{ repository(owner: "acme", name: "nope") { name } }' }),
    });
    expect(await missing.json()).toMatchObject({
      data: { repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          message: "Could not resolve to a Repository with the name 'acme/nope'.",
        },
      ],
    });
  });

  it('counts REST requests per credential and can answer with primary and secondary limits', async () => {
    const token = await host.issueInstallationToken(1000);
    const get = () =>
      fetch(`${host.apiUrl}/repos/acme/webapp`, { headers: { authorization: `token ${token}` } });
    const first = await get();
    const second = await get();
    const remaining = (r: Response) => Number(r.headers.get('x-ratelimit-remaining'));
    expect(first.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(remaining(second)).toBe(remaining(first) - 1);
    expect(Number(second.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const before = host.rateLimitedResponses();

    host.simulateRateLimit({ kind: 'primary', requests: 1, resetInSeconds: 2 });
    const primary = await get();
    expect(primary.status).toBe(403);
    expect(primary.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(primary.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(Date.now() / 1000 + 3);
    expect(((await primary.json()) as { message: string }).message).toMatch(/^API rate limit exceeded/);

    host.simulateRateLimit({ kind: 'secondary', requests: 1, retryAfterSeconds: 7, status: 429 });
    const secondary = await get();
    expect(secondary.status).toBe(429);
    expect(secondary.headers.get('retry-after')).toBe('7');
    expect(((await secondary.json()) as { message: string }).message).toMatch(/secondary rate limit/);

    // Back to normal after the simulated requests.
    expect((await get()).status).toBe(200);
    expect(host.rateLimitedResponses() - before).toBe(2);
  });

  it('retries a failed webhook delivery with the same delivery id', async () => {
    receiver.failNext(2);
    const before = receiver.deliveries.length;
    const octokit = api(await host.issueInstallationToken(1000));
    await octokit.rest.issues.create({ owner: 'acme', repo: 'webapp', title: 'Retry me' });
    await host.webhooksIdle();
    const delivered = receiver.deliveries.slice(before).filter((d) => d.event === 'issues');
    expect(delivered).toHaveLength(1);
    const key = await importPKCS8(host.credentials.privateKey, 'RS256');
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer('1')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const log = (await (
      await fetch(`${host.apiUrl}/app/hook/deliveries`, { headers: { authorization: `Bearer ${jwt}` } })
    ).json()) as { id: string; redelivery: boolean }[];
    expect(log.find((d) => d.id === delivered[0]!.id)).toMatchObject({ redelivery: true });
  });

  it('installs the App for eve from the install page and announces it', async () => {
    const signIn = await fetch(`${host.url}/session`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(host.url).origin },
      body: new URLSearchParams({ login: 'eve', return_to: '/apps/tandem/installations/new' }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const installPage = await (
      await fetch(`${host.url}/apps/tandem/installations/new`, { headers: { cookie } })
    ).text();
    expect(installPage).toContain('Install on eve');
    const installed = await fetch(`${host.url}/apps/tandem/installations`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(host.url).origin,
      },
      body: new URLSearchParams({ account: 'eve' }),
    });
    expect(installed.headers.get('location')).toMatch(
      /^http:\/\/product\.test\/installations\?installation_id=\d+&setup_action=install$/,
    );
    await host.webhooksIdle();
    const event = receiver.deliveries.find((d) => d.event === 'installation');
    expect(event?.payload).toMatchObject({
      action: 'created',
      installation: { account: { login: 'eve' } },
      sender: { login: 'eve' },
    });
  });

  it('keeps its state across a restart and seeds idempotently', async () => {
    await host.close();
    host = await startCodeHost({ dataDir, port: 0 });
    const ada = api(await host.issueUserToken('eve'));
    const { data } = await ada.rest.apps.listInstallationsForAuthenticatedUser();
    expect(data.installations).toHaveLength(1);
    const issues = await api(await host.issueInstallationToken(1000)).rest.issues.listForRepo({
      owner: 'acme',
      repo: 'webapp',
      state: 'all',
    });
    expect(issues.data.filter((i) => i.title === 'Add a subtract function')).toHaveLength(1);
  });
});
