import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppAuthProvider } from './app-auth.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from './testing/scripted-server.js';

let server: ScriptedServer;
const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const account = { id: 10, login: 'acme', type: 'Organization', avatar_url: 'https://avatars/acme' };
const provider = () =>
  createAppAuthProvider({
    appId: 42,
    privateKey,
    baseUrl: `${server.url}/api/v3`,
    throttle: false,
    retryDelayScale: 0.001,
  });

/** A host that mints numbered installation tokens living `lifetimeMs`, and serves a repository. */
function tokenHost(lifetimeMs: number) {
  let minted = 0;
  server.route((req: RecordedRequest) => {
    if (req.method === 'POST' && req.url === '/api/v3/app/installations/7/access_tokens')
      return {
        status: 201,
        body: {
          token: `ghs_${++minted}`,
          expires_at: new Date(Date.now() + lifetimeMs).toISOString(),
          permissions: {},
        },
      };
    if (req.url === '/api/v3/repos/acme/webapp') return { status: 200, body: { default_branch: 'main' } };
    return { status: 404, body: { message: 'Not Found' } };
  });
  return { tokenCalls: () => server.requests.filter((r) => r.url.endsWith('/access_tokens')) };
}

describe('GitHub App auth', () => {
  it('mints an installation token once and reuses it until shortly before it expires', async () => {
    const host = tokenHost(60 * 60_000);
    const auth = provider();
    expect(await auth.installationToken(7)).toBe('ghs_1');
    expect(await auth.installationToken(7)).toBe('ghs_1');
    expect(await Promise.all([auth.installationToken(7), auth.installationToken(7)])).toEqual([
      'ghs_1',
      'ghs_1',
    ]);
    expect(host.tokenCalls()).toHaveLength(1);
    // The token request is signed with the App's JWT (RS256: header starts eyJ).
    expect(host.tokenCalls()[0]!.headers.authorization).toMatch(/^bearer eyJ/i);
  });

  it('mints a new token when the cached one is about to expire, sharing one request among callers', async () => {
    const host = tokenHost(2 * 60_000); // inside the 5-minute renewal margin
    const auth = provider();
    expect(await Promise.all([auth.installationToken(7), auth.installationToken(7)])).toEqual([
      'ghs_1',
      'ghs_1',
    ]);
    expect(await auth.installationToken(7)).toBe('ghs_2');
    expect(host.tokenCalls()).toHaveLength(2);
  });

  it('gives an installation client that uses the cached token', async () => {
    const host = tokenHost(60 * 60_000);
    const auth = provider();
    const octokit = auth.installationOctokit(7);
    expect(auth.installationOctokit(7)).toBe(octokit);
    await octokit.rest.repos.get({ owner: 'acme', repo: 'webapp' });
    await octokit.rest.repos.get({ owner: 'acme', repo: 'webapp' });
    const repoCalls = server.requests.filter((r) => r.url === '/api/v3/repos/acme/webapp');
    expect(repoCalls.map((r) => r.headers.authorization)).toEqual(['token ghs_1', 'token ghs_1']);
    expect(host.tokenCalls()).toHaveLength(1);
  });

  it('reads installations as the App', async () => {
    server.route((req) => {
      if (req.url === '/api/v3/app/installations/7') return { status: 200, body: { id: 7, account } };
      if (req.url.startsWith('/api/v3/app/installations'))
        return {
          status: 200,
          body: [
            { id: 7, account },
            { id: 8, account: { id: 11, login: 'ada', type: 'User', avatar_url: '' } },
            { id: 9, account: { id: 12, slug: 'big-enterprise', name: 'Big' } },
          ],
        };
      return { status: 404, body: { message: 'Not Found' } };
    });
    const auth = provider();
    expect(await auth.getInstallation(7)).toEqual({
      id: 7,
      account: { id: 10, login: 'acme', type: 'Organization', avatarUrl: 'https://avatars/acme' },
    });
    expect(await auth.listInstallations()).toEqual([
      { id: 7, account: { id: 10, login: 'acme', type: 'Organization', avatarUrl: 'https://avatars/acme' } },
      { id: 8, account: { id: 11, login: 'ada', type: 'User', avatarUrl: null } },
    ]);
    expect(server.requests.every((r) => /^bearer eyJ/i.test(String(r.headers.authorization)))).toBe(true);
  });
});
