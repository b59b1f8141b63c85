import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type ClientLogger } from './client.js';
import { graphqlQuery } from './graphql.js';
import { startScriptedServer } from './testing/scripted-server.js';

const SCALE = 0.01; // 1 s of back-off becomes 10 ms

describe('code-host client retry and throttle rules', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const warnings: string[] = [];
  const logger: ClientLogger = { warn: (message) => warnings.push(message) };
  const client = (throttle = false) =>
    createGitHubClient({ baseUrl: server.url, auth: 't', logger, throttle, delayScale: SCALE });

  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('retries a 500 three times with quadratic back-off, then fails', async () => {
    server.answer({ status: 500, body: { message: 'boom' } });
    const slower = createGitHubClient({
      baseUrl: server.url,
      auth: 't',
      logger,
      throttle: false,
      delayScale: 0.05,
    });
    await expect(slower.rest.repos.get({ owner: 'a', repo: 'b' })).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(4);
    const gaps = server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);
    // Waits of 1 s, 4 s, 9 s scaled by 0.05: at least 50, 200 and 450 ms, growing each time.
    expect(gaps[0]).toBeGreaterThanOrEqual(48);
    expect(gaps[1]).toBeGreaterThanOrEqual(198);
    expect(gaps[2]).toBeGreaterThanOrEqual(448);
    expect(gaps[1]! - gaps[0]!).toBeGreaterThan(100);
    expect(gaps[2]! - gaps[1]!).toBeGreaterThan(200);
  });

  it('succeeds when a retry does', async () => {
    server.answer({ status: 502 }, { status: 200, body: { default_branch: 'main' } });
    const { data } = await client().rest.repos.get({ owner: 'a', repo: 'b' });
    expect(data.default_branch).toBe('main');
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 410, 422, 451])('never retries %i', async (status) => {
    server.answer({ status, body: { message: 'no' } });
    await expect(client().rest.repos.get({ owner: 'a', repo: 'b' })).rejects.toMatchObject({ status });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a primary rate limit exactly once and logs it', async () => {
    warnings.length = 0;
    const reset = String(Math.floor(Date.now() / 1000));
    server.answer({
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    });
    await expect(client(true).rest.repos.get({ owner: 'a', repo: 'b' })).rejects.toMatchObject({
      status: 403,
    });
    expect(server.requests).toHaveLength(2);
    expect(warnings).toEqual(['Request quota exhausted', 'Request quota exhausted']);
  });

  it('retries a secondary rate limit exactly once and logs it', async () => {
    warnings.length = 0;
    server.answer(
      {
        status: 403,
        body: { message: 'You have exceeded a secondary rate limit' },
        headers: { 'retry-after': '1' },
      },
      { status: 200, body: { default_branch: 'main' } },
    );
    const { data } = await client(true).rest.repos.get({ owner: 'a', repo: 'b' });
    expect(data.default_branch).toBe('main');
    expect(server.requests).toHaveLength(2);
    expect(warnings).toEqual(['SecondaryRateLimit detected']);
  });

  it("raises 'GraphQL Rate Limit Exceeded' on a GraphQL rate limit", async () => {
    server.answer({
      status: 200,
      body: { data: null, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] },
    });
    await expect(graphqlQuery(client(), 'query { viewer { login } }', {}, SCALE)).rejects.toThrow(
      'GraphQL Rate Limit Exceeded',
    );
  });

  it("treats GraphQL's 'something went wrong while executing' as a 500 and retries it", async () => {
    server.answer(
      {
        status: 200,
        body: {
          data: null,
          errors: [{ message: 'Something went wrong while executing your query. Please try again.' }],
        },
      },
      { status: 200, body: { data: { viewer: { login: 'ada' } } } },
    );
    await expect(graphqlQuery(client(), 'query { viewer { login } }', {}, SCALE)).resolves.toEqual({
      viewer: { login: 'ada' },
    });
    expect(server.requests).toHaveLength(2);
  });

  it('spaces writes at least 1000 ms apart when throttling is on', async () => {
    server.answer({ status: 201, body: { id: 1 } });
    const octokit = createGitHubClient({ baseUrl: server.url, auth: 't', logger, throttle: true });
    await Promise.all([
      octokit.rest.issues.createComment({ owner: 'a', repo: 'b', issue_number: 1, body: 'x' }),
      octokit.rest.issues.createComment({ owner: 'a', repo: 'b', issue_number: 1, body: 'y' }),
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(990);
  });
});
