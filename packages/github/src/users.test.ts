import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from './client.js';
import { startScriptedServer, type ScriptedServer } from './testing/scripted-server.js';
import {
  getAuthenticatedUser,
  getOrgMembershipRole,
  getRepoPermission,
  getViewerRepoPermission,
  listUserInstallationRepositories,
  listUserInstallations,
} from './users.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const octokit = () =>
  createGitHubClient({
    baseUrl: `${server.url}/api/v3`,
    auth: 'ghu_user',
    throttle: false,
    retryDelayScale: 0.001,
  });
const repo = { owner: 'acme', repo: 'webapp' };

describe('user reads', () => {
  it('reads the signed-in user', async () => {
    server.answer({
      status: 200,
      body: { id: 1, login: 'ada', name: null, email: 'ada@example.com', avatar_url: '' },
    });
    expect(await getAuthenticatedUser(octokit())).toEqual({
      id: 1,
      login: 'ada',
      name: null,
      email: 'ada@example.com',
      avatarUrl: null,
    });
    expect(server.requests[0]).toMatchObject({
      url: '/api/v3/user',
      headers: { authorization: 'token ghu_user' },
    });
  });

  it('lists every page of the user’s installations and their repositories', async () => {
    const page2 = `${server.url}/api/v3/user/installations?per_page=100&page=2`;
    server.route((req) => {
      if (req.url.startsWith('/api/v3/user/installations/7/repositories'))
        return {
          status: 200,
          body: {
            total_count: 1,
            repositories: [{ id: 100, full_name: 'acme/webapp', private: true, default_branch: 'trunk' }],
          },
        };
      if (req.url.includes('page=2'))
        return {
          status: 200,
          body: {
            total_count: 2,
            installations: [{ id: 8, account: { id: 11, login: 'ada', type: 'User' } }],
          },
        };
      return {
        status: 200,
        body: {
          total_count: 2,
          installations: [{ id: 7, account: { id: 10, login: 'acme', type: 'Organization' } }],
        },
        headers: { link: `<${page2}>; rel="next"` },
      };
    });
    expect(await listUserInstallations(octokit())).toEqual([
      { id: 7, account: { id: 10, login: 'acme', type: 'Organization', avatarUrl: null } },
      { id: 8, account: { id: 11, login: 'ada', type: 'User', avatarUrl: null } },
    ]);
    expect(await listUserInstallationRepositories(octokit(), 7)).toEqual([
      { id: 100, fullName: 'acme/webapp', private: true, defaultBranch: 'trunk' },
    ]);
  });

  it('reads an organisation role: active admin or member, else null', async () => {
    server.answer({ status: 200, body: { state: 'active', role: 'admin' } });
    expect(await getOrgMembershipRole(octokit(), 'acme')).toBe('admin');
    server.answer({ status: 200, body: { state: 'active', role: 'member' } });
    expect(await getOrgMembershipRole(octokit(), 'acme')).toBe('member');
    server.answer({ status: 200, body: { state: 'pending', role: 'admin' } });
    expect(await getOrgMembershipRole(octokit(), 'acme')).toBeNull();
    server.answer({ status: 404, body: { message: 'Not Found' } });
    expect(await getOrgMembershipRole(octokit(), 'acme')).toBeNull();
    expect(server.requests[0]!.url).toBe('/api/v3/user/memberships/orgs/acme');
  });

  it.each([
    ['admin', 'admin'],
    ['maintain', 'write'],
    ['write', 'write'],
    ['triage', 'read'],
    ['read', 'read'],
    ['none', 'none'],
  ])('maps collaborator permission %s to %s', async (permission, expected) => {
    server.answer({ status: 200, body: { permission, user: { login: 'bob' } } });
    expect(await getRepoPermission(octokit(), { ...repo, username: 'bob' })).toBe(expected);
    expect(server.requests[0]!.url).toBe('/api/v3/repos/acme/webapp/collaborators/bob/permission');
  });

  it('reads an unknown user’s permission as none, and the viewer’s own from the repository', async () => {
    server.answer({ status: 404, body: { message: 'Not Found' } });
    expect(await getRepoPermission(octokit(), { ...repo, username: 'ghost' })).toBe('none');
    server.answer({ status: 200, body: { permissions: { admin: false, push: false, pull: true } } });
    expect(await getViewerRepoPermission(octokit(), repo)).toBe('read');
    server.answer({
      status: 200,
      body: { permissions: { admin: false, maintain: true, push: true, pull: true } },
    });
    expect(await getViewerRepoPermission(octokit(), repo)).toBe('write');
  });
});
