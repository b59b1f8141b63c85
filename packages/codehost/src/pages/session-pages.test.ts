import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPagesHarness, type PagesHarness } from '../testing/pages-harness.js';

const run = promisify(execFile);

describe('code host pages: sign-in, 404s and personal access tokens', () => {
  let h: PagesHarness;
  const work = mkdtempSync(join(tmpdir(), 'codehost-clone-'));
  beforeAll(async () => {
    h = await startPagesHarness();
  });
  afterAll(async () => {
    await h?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows a Sign in link that returns to the page, and a favicon, with a script-free CSP', async () => {
    const home = await h.get('/ada/playground');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<a href="/login?return_to=%2Fada%2Fplayground">Sign in</a>');
    expect(home.text).toContain('<link rel="icon" href="/favicon.svg"');
    expect(home.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(home.headers.get('content-security-policy')).not.toContain('script-src');
    const login = await h.get('/login?return_to=%2Fada%2Fplayground');
    expect(login.text).toContain('<input type="hidden" name="return_to" value="/ada/playground">');
    // Only local paths are followed.
    expect((await h.get('/login?return_to=https%3A%2F%2Fevil.test')).text).toContain(
      'name="return_to" value="/"',
    );
    expect((await h.get('/login?return_to=%2F%2Fevil.test')).text).toContain('name="return_to" value="/"');
    for (const icon of ['/favicon.svg', '/favicon.ico']) {
      const res = await h.get(icon);
      expect(res.headers.get('content-type')).toContain('image/svg+xml');
    }
  });

  it('signs in and out: the menu names the user; Sign out needs this Origin and revokes the session', async () => {
    const cookie = await h.signIn('bob');
    expect((await h.get('/', cookie)).text).toContain('Signed in as <strong>bob</strong>');
    const forged = await h.post('/logout', {}, { cookie, origin: 'http://evil.test' });
    expect(forged.status).toBe(403);
    expect((await h.post('/logout', {}, { cookie, origin: null })).status).toBe(403);
    expect((await h.get('/', cookie)).text).toContain('Signed in as');
    const out = await h.post('/logout', { return_to: '/ada/playground' }, { cookie });
    expect(out.status).toBe(303);
    expect(out.location).toBe('/ada/playground');
    // The old cookie is dead server-side, not just cleared in this browser.
    const after = await h.get('/', cookie);
    expect(after.text).not.toContain('Signed in as');
    expect(after.text).toContain('>Sign in</a>');
  });

  it('refuses sign-in and App installs posted from another site (login CSRF)', async () => {
    for (const origin of [undefined, 'http://evil.example']) {
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (origin) headers.origin = origin;
      const signIn = await fetch(`${h.host.url}/session`, {
        method: 'POST',
        redirect: 'manual',
        headers,
        body: new URLSearchParams({ login: 'eve', return_to: '/' }),
      });
      expect(signIn.status).toBe(403);
      expect(signIn.headers.get('set-cookie')).toBeNull();
      expect(await signIn.text()).toContain('This form was not sent from a code host page.');
    }
    const cookie = await h.signIn('eve');
    const install = await fetch(`${h.host.url}/apps/${h.host.credentials.slug}/installations`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: new URLSearchParams({ account: 'eve' }),
    });
    expect(install.status).toBe(403);
    expect(await install.text()).toContain('This form was not sent from a code host page.');
  });

  it("answers a private repository with GitHub's 404 and a sign-in offer, whether or not it exists", async () => {
    const hidden = await h.get('/acme/webapp');
    const missing = await h.get('/acme/does-not-exist');
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.text).toContain('href="/login?return_to=%2Facme%2Fwebapp"');
    // Same words either way: the 404 says nothing about existence.
    const words = (html: string) => html.replace(/return_to=[^"]*/g, '').replace(/<title>.*<\/title>/, '');
    expect(words(hidden.text)).toBe(words(missing.text));
    for (const path of [
      '/acme/webapp/tree/main',
      '/acme/webapp/blob/main/README.md',
      '/acme/webapp/issues/1',
    ])
      expect((await h.get(path)).status).toBe(404);
    // eve is signed in but has no access: still 404.
    const eve = await h.signIn('eve');
    expect((await h.get('/acme/webapp', eve)).status).toBe(404);
    expect((await h.get('/acme/webapp', await h.signIn('bob'))).status).toBe(200);
  });

  it('creates a personal access token shown once, clones a private repository with it, and deletes it', async () => {
    expect((await h.get('/settings/tokens')).status).toBe(302);
    const cookie = await h.signIn('bob');
    expect((await h.post('/settings/tokens', { name: 'laptop' }, { cookie, origin: null })).status).toBe(403);
    expect((await h.post('/settings/tokens', { name: '' }, { cookie })).status).toBe(422);
    expect((await h.post('/settings/tokens', { name: 'laptop' })).status).toBe(401);
    const created = await h.post('/settings/tokens', { name: 'laptop' }, { cookie });
    expect(created.status).toBe(200);
    const token = /value="(ghp_[A-Za-z0-9_-]+)"/.exec(created.text)?.[1];
    expect(token).toBeDefined();
    const list = await h.get('/settings/tokens', cookie);
    expect(list.text).toContain('<strong>laptop</strong>');
    expect(list.text).not.toContain(token);
    expect(readFileSync(join(h.dataDir, 'store.json'), 'utf8')).not.toContain(token);

    const page = await h.get('/acme/webapp', cookie);
    expect(page.text).toContain(`git clone ${h.host.url.replace('://', '://bob:TOKEN@')}/acme/webapp.git`);
    const url = `${h.host.url.replace('://', `://bob:${token}@`)}/acme/webapp.git`;
    await run('git', ['clone', '--quiet', url, join(work, 'webapp')], {
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    expect(readFileSync(join(work, 'webapp', 'README.md'), 'utf8')).toContain('# webapp');

    const id = /action="\/settings\/tokens\/(\d+)\/delete"/.exec(list.text)![1]!;
    expect(
      (await h.post(`/settings/tokens/${id}/delete`, {}, { cookie: await h.signIn('eve') })).status,
    ).toBe(404);
    expect((await h.post(`/settings/tokens/${id}/delete`, {}, { cookie })).status).toBe(303);
    await expect(
      run('git', ['ls-remote', url], { env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }),
    ).rejects.toThrow();
  });
});
