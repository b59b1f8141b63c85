import { generateKeyPairSync } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppAuthProvider } from './app-auth.js';
import { createGitHubClient } from './client.js';
import { listBranches, listScripts, readFile } from './reads.js';
import { startScriptedServer } from './testing/scripted-server.js';
import { parseWebhookHeaders, verifyWebhookSignature } from './webhooks.js';

describe('code-host reads', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  const client = () =>
    createGitHubClient({ baseUrl: `${server.url}/api/v3`, auth: 't', throttle: false, delayScale: 0.001 });
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  const file = (content: Buffer, extra: Record<string, unknown> = {}) => ({
    status: 200,
    body: {
      type: 'file',
      encoding: 'base64',
      size: content.length,
      content: content.toString('base64'),
      ...extra,
    },
  });

  it('reads the five file states', async () => {
    const ref = { owner: 'acme', repo: 'webapp', path: 'x' };
    server.answer(file(Buffer.from('héllo\n')));
    expect(await readFile(client(), ref)).toEqual({ status: 'ok', contents: 'héllo\n' });
    server.answer({ status: 404, body: { message: 'Not Found' } });
    expect(await readFile(client(), ref)).toEqual({ status: 'not_found', contents: '' });
    server.answer(file(Buffer.from([0x89, 0x50, 0x00, 0x01])));
    expect(await readFile(client(), ref)).toEqual({ status: 'binary' });
    server.answer(file(Buffer.from(''), { size: 5 * 1024 * 1024, encoding: 'none', content: '' }));
    expect(await readFile(client(), ref)).toEqual({ status: 'too_large' });
    server.answer({ status: 403, body: { message: 'Resource not accessible by integration' } });
    expect(await readFile(client(), ref)).toMatchObject({
      status: 'error',
      message: expect.stringContaining('not accessible'),
    });
  });

  it('pages branches through GraphQL, newest first', async () => {
    const node = (name: string, date: string) => ({ name, target: { committedDate: date } });
    server.route((req) => {
      const { variables } = JSON.parse(req.body) as { variables: { cursor: string | null } };
      const page =
        variables.cursor === null
          ? {
              nodes: [node('feature', '2026-11-03T00:00:00Z'), node('main', '2026-11-02T00:00:00Z')],
              pageInfo: { hasNextPage: true, endCursor: 'c1' },
            }
          : {
              nodes: [node('old', '2026-01-01T00:00:00Z')],
              pageInfo: { hasNextPage: false, endCursor: 'c2' },
            };
      return { status: 200, body: { data: { repository: { refs: page } } } };
    });
    expect(await listBranches(client(), { owner: 'acme', repo: 'webapp' })).toEqual([
      { name: 'feature', committedDate: '2026-11-03T00:00:00Z' },
      { name: 'main', committedDate: '2026-11-02T00:00:00Z' },
      { name: 'old', committedDate: '2026-01-01T00:00:00Z' },
    ]);
    expect(server.requests.map((r) => r.url)).toEqual(['/api/graphql', '/api/graphql']);
  });

  it('lists .sh scripts per folder, an empty list where a folder fails', async () => {
    server.route((req) => {
      const { variables } = JSON.parse(req.body) as { variables: { expression: string } };
      if (variables.expression === 'main:.tandem/run/auto')
        return { status: 502, body: { message: 'bad gateway' } };
      if (variables.expression === 'main:.tandem/run') {
        const entries = [
          { name: 'test.sh', type: 'blob' },
          { name: 'notes.md', type: 'blob' },
          { name: 'auto', type: 'tree' },
        ];
        return { status: 200, body: { data: { repository: { object: { entries } } } } };
      }
      return { status: 200, body: { data: { repository: { object: null } } } };
    });
    expect(await listScripts(client(), { owner: 'acme', repo: 'webapp', ref: 'main' })).toEqual({
      run: ['.tandem/run/test.sh'],
      auto: [],
      preview: [],
    });
  });
});

describe('GitHub App auth', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>;
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server.close());

  it('caches installation tokens until they expire', async () => {
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    server.route((req) =>
      req.url === '/app/installations/7/access_tokens'
        ? {
            status: 201,
            body: {
              token: 'ghs_cached',
              expires_at: expiresAt,
              permissions: {},
              repository_selection: 'all',
            },
          }
        : { status: 404, body: { message: 'Not Found' } },
    );
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const auth = createAppAuthProvider({ appId: 1, privateKey, baseUrl: server.url, throttle: false });
    expect(await auth.installationToken(7)).toBe('ghs_cached');
    expect(await auth.installationToken(7)).toBe('ghs_cached');
    const tokenCalls = server.requests.filter((r) => r.url === '/app/installations/7/access_tokens');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]!.headers.authorization).toMatch(/^bearer eyJ/i);
  });
});

describe('webhook verification', () => {
  it('accepts the right signature and rejects anything else', async () => {
    const body = '{"action":"opened"}';
    const signature = await sign('s3cret', body);
    expect(await verifyWebhookSignature('s3cret', body, signature)).toBe(true);
    expect(await verifyWebhookSignature('other', body, signature)).toBe(false);
    expect(await verifyWebhookSignature('s3cret', `${body} `, signature)).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, undefined)).toBe(false);
    expect(await verifyWebhookSignature('s3cret', body, 'sha1=abc')).toBe(false);
  });

  it('reads the delivery headers and names what is missing', () => {
    expect(
      parseWebhookHeaders({
        'x-github-event': 'push',
        'x-github-delivery': 'd1',
        'x-hub-signature-256': 'sha256=x',
      }),
    ).toEqual({
      event: 'push',
      deliveryId: 'd1',
      signature: 'sha256=x',
    });
    expect(() => parseWebhookHeaders({ 'x-github-event': 'push' })).toThrow(
      'Missing X-GitHub-Delivery header',
    );
  });
});
