import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '@tandem/agent';
import { generateScriptsResponseSchema, repositoryScriptsSchema, SCRIPTS_MESSAGES } from '@tandem/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

describe('repository scripts and their generation', () => {
  const testApp = useTestApp('pglite', { codeHost: true });
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;

  beforeAll(async () => {
    app = testApp();
    const acme = { id: 1000, name: 'acme', repos: ['acme/webapp'] };
    ada = await app.signIn({ username: 'ada', admin: true, installations: [{ ...acme, role: 'admin' }] });
    bob = await app.signIn({ username: 'bob', installations: [{ ...acme, role: 'member' }] });
    eve = await app.signIn({ username: 'eve', installations: [] });
  });

  /** Commits `.tandem/` scripts to acme/webapp's default branch, as a person would. */
  async function pushScripts(files: Record<string, string>): Promise<void> {
    const token = await app.codeHost!.issueInstallationToken(1000);
    const dir = mkdtempSync(join(tmpdir(), 'tandem-scripts-'));
    const auth = { token };
    expect(
      (await git(dir, ['clone', '--quiet', `${app.codeHost!.url}/acme/webapp.git`, 'repo'], { auth }))
        .exitCode,
    ).toBe(0);
    const repo = join(dir, 'repo');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(repo, path, '..'), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    const id = ['-c', 'user.name=Someone', '-c', 'user.email=someone@example.com'];
    expect((await git(repo, ['add', '.'])).exitCode).toBe(0);
    expect((await git(repo, [...id, 'commit', '--quiet', '-m', 'scripts'])).exitCode).toBe(0);
    expect((await git(repo, ['push', '--quiet', 'origin', 'HEAD:main'], { auth })).exitCode).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  }

  it('lists the scripts with their text for product admins', async () => {
    await pushScripts({
      '.tandem/setup.sh': 'npm ci\n',
      '.tandem/run/test.sh': 'npm test\n',
      '.tandem/preview/web.sh': 'npm start\n',
    });
    const res = await app.server.inject({ url: '/api/repositories/acme/webapp/scripts', headers: as(ada) });
    expect(res.statusCode).toBe(200);
    expect(repositoryScriptsSchema.parse(res.json())).toEqual({
      scripts: {
        '.tandem/setup.sh': 'npm ci\n',
        '.tandem/run/test.sh': 'npm test\n',
        '.tandem/preview/web.sh': 'npm start\n',
      },
      open_pr_links: [],
      agent_ids: [],
    });
  });

  it('starts a script-generation agent and lists it while it works', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/repositories/acme/webapp/generate-scripts',
      headers: as(ada),
    });
    expect(res.statusCode).toBe(200);
    const { agent_id } = generateScriptsResponseSchema.parse(res.json());
    expect((app.runner as { enqueued?: string[] }).enqueued).toContain(agent_id);
    const scripts = repositoryScriptsSchema.parse(
      (await app.server.inject({ url: '/api/repositories/acme/webapp/scripts', headers: as(ada) })).json(),
    );
    expect(scripts.agent_ids).toEqual([agent_id]);
    // Its task names the scripts it must write.
    const conversation = (
      await app.server.inject({ url: `/api/agent/conversation?trajectory_id=${agent_id}`, headers: as(ada) })
    ).json() as { conversation: { message?: string }[] };
    expect(conversation.conversation[0]?.message).toMatch(/\.tandem\/setup\.sh/);
  });

  it('refuses members who are not product admins, and hides the repository from outsiders', async () => {
    for (const [method, url] of [
      ['GET', '/api/repositories/acme/webapp/scripts'],
      ['POST', '/api/repositories/acme/webapp/generate-scripts'],
    ] as const) {
      const member = await app.server.inject({ method, url, headers: as(bob) });
      expect(member.statusCode).toBe(403);
      expect(member.json()).toMatchObject({ detail: SCRIPTS_MESSAGES.adminsOnly });
      expect((await app.server.inject({ method, url, headers: as(eve) })).statusCode).toBe(404);
      expect((await app.server.inject({ method, url })).statusCode).toBe(401);
    }
  });
});
