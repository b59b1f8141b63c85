import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGitHubClient, graphqlUrl, type GitHubClientOptions } from './client.js';
import { GraphqlRateLimitError, graphqlQuery } from './graphql/query.js';
import type { ClientLogger } from './logger.js';
import { RATE_LIMIT_LOG } from './rate-limits.js';
import { startScriptedServer, type ScriptedServer } from './testing/scripted-server.js';

let server: ScriptedServer;
const warnings: { message: string; details: Record<string, unknown> | undefined }[] = [];
const logger: ClientLogger = { warn: (message, details) => warnings.push({ message, details }) };

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
beforeEach(() => {
  warnings.length = 0;
});

/** Throttling off (its spacing would slow every test) and waits scaled down 1000×. */
const client = (options: Partial<GitHubClientOptions> = {}) =>
  createGitHubClient({
    baseUrl: `${server.url}/api/v3`,
    auth: 't',
    logger,
    throttle: false,
    retryDelayScale: 0.001,
    ...options,
  });
const getRepo = (octokit = client()) => octokit.rest.repos.get({ owner: 'acme', repo: 'webapp' });
const gaps = () => server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);
const epochSeconds = (offsetSeconds = 0) => String(Math.floor(Date.now() / 1000) + offsetSeconds);

describe('retry rule', () => {
  it('retries a 500 three times with quadratic back-off (1:4:9), then fails', async () => {
    server.answer({ status: 500, body: { message: 'boom' } });
    // The waits Octokit schedules, exactly; wall-clock gaps below only bound them from beneath,
    // since a busy machine adds its own delay to every one.
    const timer = vi.spyOn(globalThis, 'setTimeout');
    try {
      // 1 s, 4 s, 9 s scaled by 0.1: 100, 400 and 900 ms.
      await expect(getRepo(client({ retryDelayScale: 0.1 }))).rejects.toMatchObject({ status: 500 });
      // Other timers run too (test runner, limiter housekeeping): keep the multiples of the base.
      const backOff = timer.mock.calls
        .map((call) => call[1])
        .filter((ms) => [100, 200, 400, 900, 1600].includes(ms!));
      expect(backOff).toEqual([100, 400, 900]);
    } finally {
      timer.mockRestore();
    }
    expect(server.requests).toHaveLength(4);
    const [first, second, third] = gaps() as [number, number, number];
    expect(first).toBeGreaterThanOrEqual(98);
    expect(second).toBeGreaterThanOrEqual(398);
    expect(third).toBeGreaterThanOrEqual(898);
  });

  it('succeeds when a retry does', async () => {
    server.answer({ status: 502 }, { status: 200, body: { default_branch: 'main' } });
    const { data } = await getRepo();
    expect(data.default_branch).toBe('main');
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 410, 422, 451])('never retries %i', async (status) => {
    server.answer({ status, body: { message: 'no' } });
    await expect(getRepo()).rejects.toMatchObject({ status });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hung request per attempt and retries it like a 500', async () => {
    server.answer({ status: 200, hang: true });
    await expect(getRepo(client({ requestTimeoutMs: 50 }))).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(4);
  });
  it("gives every request its own timeout: a request long after another does not inherit the old one's", async () => {
    // Octokit hands consecutive requests the same `request` options object; a timeout written
    // there by one request once made every request more than the timeout later fail at once.
    const octokit = client({ requestTimeoutMs: 100 });
    server.answer({ status: 200, body: { default_branch: 'main' } });
    await getRepo(octokit);
    await new Promise((resolve) => setTimeout(resolve, 250));
    server.answer({ status: 200, body: { default_branch: 'main' } });
    const { data } = await getRepo(octokit);
    expect(data.default_branch).toBe('main');
    // Answered at the first attempt (answer() cleared the first request's record).
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a request its caller aborted', async () => {
    server.answer({ status: 200, hang: true });
    const controller = new AbortController();
    const pending = client().rest.repos.get({
      owner: 'acme',
      repo: 'webapp',
      request: { signal: controller.signal },
    });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  it('keeps Octokit quiet: nothing reaches the console', async () => {
    const spies = (['debug', 'info', 'log', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level),
    );
    try {
      server.answer({ status: 404, body: { message: 'Not Found' } });
      await expect(getRepo(client({ logger: undefined }))).rejects.toMatchObject({ status: 404 });
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });
});

describe('rate limits', () => {
  it.each([403, 429])('retries a primary rate limit (%i) exactly once, after the reset', async (status) => {
    server.answer({
      status,
      body: { message: 'API rate limit exceeded' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epochSeconds(5) },
    });
    // Reset in ~5 s, plus GitHub's extra second, scaled by 0.01: at least 50 ms.
    await expect(getRepo(client({ retryDelayScale: 0.01 }))).rejects.toMatchObject({ status });
    expect(server.requests).toHaveLength(2);
    expect(gaps()[0]).toBeGreaterThanOrEqual(48);
    expect(warnings.map((w) => w.message)).toEqual([RATE_LIMIT_LOG.primary, RATE_LIMIT_LOG.primary]);
    expect(warnings[0]!.details).toMatchObject({
      method: 'GET',
      url: '/repos/{owner}/{repo}',
      willRetry: true,
    });
    expect(warnings[1]!.details).toMatchObject({ willRetry: false });
  });

  it('logs exactly "Request quota exhausted" and succeeds when the retry does', async () => {
    server.answer(
      {
        status: 403,
        body: { message: 'API rate limit exceeded' },
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epochSeconds() },
      },
      { status: 200, body: { default_branch: 'main' } },
    );
    // Throttling on here: the rule must hold with the real limiters too.
    const { data } = await getRepo(client({ throttle: true }));
    expect(data.default_branch).toBe('main');
    expect(server.requests).toHaveLength(2);
    expect(warnings.map((w) => w.message)).toEqual(['Request quota exhausted']);
  });

  it.each([403, 429])('retries a secondary rate limit (%i) once after retry-after', async (status) => {
    server.answer({
      status,
      body: { message: 'You have exceeded a secondary rate limit. Please wait a few minutes.' },
      headers: { 'retry-after': '3' },
    });
    await expect(getRepo(client({ retryDelayScale: 0.01 }))).rejects.toMatchObject({ status });
    expect(server.requests).toHaveLength(2);
    expect(gaps()[0]).toBeGreaterThanOrEqual(28);
    expect(warnings.map((w) => w.message)).toEqual([
      'SecondaryRateLimit detected',
      'SecondaryRateLimit detected',
    ]);
    expect(warnings[0]!.details).toMatchObject({ method: 'GET', retryAfter: 3 });
  });

  it('waits 60 s (scaled) on a secondary limit without retry-after', async () => {
    server.answer(
      { status: 403, body: { message: 'You have exceeded a secondary rate limit' } },
      { status: 200, body: { default_branch: 'main' } },
    );
    await expect(getRepo()).resolves.toMatchObject({ data: { default_branch: 'main' } });
    expect(gaps()[0]).toBeGreaterThanOrEqual(58);
    expect(warnings[0]).toMatchObject({ message: RATE_LIMIT_LOG.secondary, details: { retryAfter: 60 } });
  });

  it('does not retry a 429 that carries neither rate-limit marker', async () => {
    server.answer({ status: 429, body: { message: 'Too many requests' } });
    await expect(getRepo()).rejects.toMatchObject({ status: 429 });
    expect(server.requests).toHaveLength(1);
  });
});

describe('GraphQL rules', () => {
  const layouts = [
    ['GitHub Enterprise / local host', '/api/v3', '/api/graphql'],
    ['github.com', '', '/graphql'],
  ] as const;

  it.each(layouts)(
    '%s: RATE_LIMITED is retried once, then raises "GraphQL Rate Limit Exceeded"',
    async (_, rest, gql) => {
      server.answer({
        status: 200,
        body: {
          data: null,
          errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user.' }],
        },
      });
      const octokit = client({ baseUrl: `${server.url}${rest}` });
      const query = graphqlQuery(octokit, 'query { viewer { login } }');
      await expect(query).rejects.toBeInstanceOf(GraphqlRateLimitError);
      await expect(query).rejects.toThrow('GraphQL Rate Limit Exceeded');
      expect(server.requests.map((r) => r.url)).toEqual([gql, gql]);
      expect(warnings.map((w) => w.message)).toEqual([RATE_LIMIT_LOG.primary, RATE_LIMIT_LOG.primary]);
    },
  );

  it.each(layouts)(
    '%s: "Something went wrong while executing your query" is retried like a 500',
    async (_, rest) => {
      const wentWrong = {
        status: 200,
        body: {
          data: null,
          errors: [
            {
              message:
                'Something went wrong while executing your query. Please include `ABC` when reporting.',
            },
          ],
        },
      };
      server.answer(wentWrong, { status: 200, body: { data: { viewer: { login: 'ada' } } } });
      const octokit = client({ baseUrl: `${server.url}${rest}` });
      await expect(graphqlQuery(octokit, 'query { viewer { login } }')).resolves.toEqual({
        viewer: { login: 'ada' },
      });
      expect(server.requests).toHaveLength(2);

      server.answer(wentWrong);
      await expect(graphqlQuery(octokit, 'query { viewer { login } }')).rejects.toMatchObject({
        status: 500,
      });
      expect(server.requests).toHaveLength(4);
    },
  );

  it('derives the GraphQL URL from the REST base URL', () => {
    expect(graphqlUrl('https://api.github.com')).toBe('https://api.github.com/graphql');
    expect(graphqlUrl('https://api.github.com/')).toBe('https://api.github.com/graphql');
    expect(graphqlUrl('https://ghe.example.com/api/v3')).toBe('https://ghe.example.com/api/graphql');
    expect(graphqlUrl('http://127.0.0.1:7070/api/v3/')).toBe('http://127.0.0.1:7070/api/graphql');
  });
});

describe('credentials', () => {
  it('sends a token, or nothing for anonymous reads', async () => {
    server.answer({ status: 200, body: { default_branch: 'main' } });
    await getRepo(client({ auth: 'ghu_abc' }));
    await getRepo(client({ auth: undefined }));
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['token ghu_abc', undefined]);
  });

  it('asks a token source on every attempt, so a retry carries a renewed token', async () => {
    server.answer({ status: 502 }, { status: 200, body: { default_branch: 'main' } });
    let issued = 0;
    const octokit = client({ auth: async () => `ghs_${++issued}`, throttleKey: 'installation 1' });
    await getRepo(octokit);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['token ghs_1', 'token ghs_2']);
  });
});

describe('throttling (on)', () => {
  it('spaces one credential’s writes ≥ 1000 ms apart, without holding back another credential', async () => {
    server.route((req) => ({ status: 201, body: { ref: req.headers.authorization } }));
    const createRef = (auth: string) =>
      client({ auth, throttle: true }).rest.git.createRef({
        owner: 'acme',
        repo: 'webapp',
        ref: 'refs/heads/x',
        sha: 'abc',
      });
    const started = performance.now();
    await Promise.all([createRef('writer-a'), createRef('writer-a'), createRef('writer-b')]);
    const at = (token: string) =>
      server.requests.filter((r) => r.headers.authorization === `token ${token}`).map((r) => r.at);
    const [a1, a2] = at('writer-a') as [number, number];
    expect(a2 - a1).toBeGreaterThanOrEqual(990);
    expect(at('writer-b')[0]! - started).toBeLessThan(500);
  });
});
