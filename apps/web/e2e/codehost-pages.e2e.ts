import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';

const run = promisify(execFile);

/**
 * The local code host's own pages, as a newcomer uses them: sign in, create a token, browse files
 * and commits, open, comment on and merge a pull request, close and reopen an issue. Everything
 * happens on ada/playground, so the other browser tests' repositories stay as they were.
 */
describe('the code host pages', () => {
  const browser = useBrowser();
  const work = mkdtempSync(join(tmpdir(), 'codehost-pages-e2e-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  async function axe(page: Page) {
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
  }

  /** Nothing wider than a phone's screen: wide content scrolls inside its own box. */
  async function fitsPhone(page: Page) {
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), page.url()).toBeLessThanOrEqual(
      375,
    );
    await page.setViewportSize({ width: 1200, height: 900 });
  }

  it(
    'signs in, browses, comments on and merges a pull request, closes and reopens an issue',
    { timeout: 180_000 },
    async () => {
      const { page, context } = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      // The product's sign-in leads to the code host, which is how we learn its address.
      await page.goto('/auth/github');
      await page.getByRole('button', { name: 'Sign in as ada' }).waitFor();
      const codeHost = new URL(page.url()).origin;

      await page.goto(`${codeHost}/`);
      await page.getByRole('heading', { level: 1, name: 'Repositories' }).waitFor();
      await axe(page);
      const account = page.getByRole('navigation', { name: 'Account' });
      await account.getByRole('link', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sign in to the code host' }).waitFor();
      await axe(page);
      await page.getByRole('button', { name: 'Sign in as ada' }).click();
      await account.getByText('Signed in as ada').waitFor();
      expect(new URL(page.url()).pathname).toBe('/');

      // A personal access token, shown once, for git over HTTP.
      await account.getByRole('link', { name: 'Tokens' }).click();
      await page.getByLabel('Token name').fill('e2e laptop');
      await page.getByRole('button', { name: 'Generate token' }).click();
      const token = await page.getByLabel('Token', { exact: true }).inputValue();
      expect(token).toMatch(/^ghp_/);
      await axe(page);
      const clone = join(work, 'playground');
      const remote = `${codeHost.replace('://', `://ada:${token}@`)}/ada/playground.git`;
      const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
      await run('git', ['clone', '--quiet', remote, clone], { env });
      writeFileSync(
        join(clone, 'hello.md'),
        '# Hello\n\nA line that is rather long, so that a phone has to scroll it sideways inside its box rather than the page.\n',
      );
      await run('git', ['-C', clone, 'checkout', '-q', '-b', 'pages-e2e'], { env });
      await run('git', ['-C', clone, 'add', '.'], { env });
      await run(
        'git',
        [
          '-C',
          clone,
          '-c',
          'user.name=Ada',
          '-c',
          'user.email=ada@example.com',
          'commit',
          '-qm',
          'Add hello',
        ],
        { env },
      );
      await run('git', ['-C', clone, 'push', '-q', 'origin', 'pages-e2e'], { env });

      // The repository home, the branch switcher, the tree and a file.
      await page.goto(`${codeHost}/ada/playground`);
      await page.getByLabel('HTTP clone URL').waitFor();
      await axe(page);
      await page.getByText('Branch: main').click();
      await page.getByRole('list', { name: 'Branches' }).getByRole('link', { name: 'pages-e2e' }).click();
      await page.waitForURL(/\/tree\/pages-e2e$/);
      await axe(page);
      await page.getByRole('list', { name: 'Files' }).getByRole('link', { name: 'hello.md' }).click();
      await page.waitForURL(/\/blob\/pages-e2e\/hello\.md$/);
      await page.getByRole('cell', { name: '# Hello' }).waitFor();
      await axe(page);
      await fitsPhone(page);

      // History and one commit with its diff.
      await page.getByRole('link', { name: 'History' }).click();
      await page.getByRole('heading', { level: 1, name: 'Commits on pages-e2e' }).waitFor();
      await axe(page);
      await page.getByRole('list', { name: 'Commits' }).getByRole('link', { name: 'Add hello' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add hello' }).waitFor();
      await page.getByRole('cell', { name: '+# Hello' }).waitFor();
      await axe(page);
      await fitsPhone(page);

      // Open a pull request, comment on it, merge it.
      await page.goto(`${codeHost}/ada/playground/compare/main...pages-e2e`);
      await page
        .getByRole('textbox', { name: 'Description' })
        .fill('- [x] says hello\n\n<script>alert(1)</script>');
      await axe(page);
      await page.getByRole('button', { name: 'Create pull request' }).click();
      await page.waitForURL(/\/ada\/playground\/pull\/\d+$/);
      await page.getByRole('checkbox', { name: 'Done' }).waitFor();
      expect(await page.getByText('<script>alert(1)</script>').count()).toBe(1);
      await axe(page);
      await fitsPhone(page);
      await page.getByRole('textbox', { name: 'Comment' }).fill('Nice **work**');
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await page.getByRole('article', { name: 'ada commented' }).getByText('work', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Merge pull request' }).click();
      await page.getByText('Merged', { exact: true }).waitFor();
      await page.getByRole('link', { name: /^[0-9a-f]{7}$/ }).waitFor();
      await axe(page);
      await page.getByRole('link', { name: /^Files changed/ }).click();
      await page.getByRole('cell', { name: '+# Hello' }).waitFor();
      await axe(page);

      // An issue: close and reopen it.
      const created = await page.request.post(`${codeHost}/api/v3/repos/ada/playground/issues`, {
        headers: { authorization: `Bearer ${token}` },
        data: { title: 'Say goodbye too', body: 'After **hello**.' },
      });
      expect(created.status()).toBe(201);
      const { number } = (await created.json()) as { number: number };
      await page.goto(`${codeHost}/ada/playground/issues/${number}`);
      await page.getByText('hello', { exact: true }).waitFor();
      await axe(page);
      await page.getByRole('button', { name: 'Close issue' }).click();
      await page.getByRole('button', { name: 'Reopen issue' }).waitFor();
      expect(await page.getByText('Closed', { exact: true }).count()).toBe(1);
      await axe(page);
      await page.getByRole('button', { name: 'Reopen issue' }).click();
      await page.getByRole('button', { name: 'Close issue' }).waitFor();

      // Signing out returns to the page, signed out.
      await account.getByRole('button', { name: 'Sign out' }).click();
      await account.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/ada/playground/issues/${number}`);
      await context.close();
    },
  );

  it('answers a private repository with a 404 that offers sign-in, and returns there after', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/auth/github');
    await page.getByRole('button', { name: 'Sign in as bob' }).waitFor();
    const codeHost = new URL(page.url()).origin;
    const response = await page.goto(`${codeHost}/acme/api`);
    expect(response?.status()).toBe(404);
    await axe(page);
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign in as bob' }).click();
    await page.waitForURL(`${codeHost}/acme/api`);
    await page.getByRole('heading', { level: 1, name: 'acme/api' }).waitFor();
    await context.close();
  });
});
