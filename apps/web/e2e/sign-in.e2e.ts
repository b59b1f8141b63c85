import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

/** From Tandem's login page through the local code host's "Sign in as …" page and back. */
async function signInAs(page: Page, login: string) {
  await page.goto('/login');
  await page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
  await page.getByRole('button', { name: `Sign in as ${login}` }).click();
}

describe('signing in with the code host', () => {
  const browser = useBrowser();

  it('signs ada in and lands on /agents; signing out works', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'ada');
    await page.waitForURL(/\/agents$/);
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    const crumbs = page.getByRole('banner').getByRole('navigation', { name: 'breadcrumb' });
    expect(await crumbs.getByText('Agents Manager').isVisible()).toBe(true);
    expect(await crumbs.getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/gh');

    await page.getByRole('button', { name: 'Account menu' }).click();
    // ada is a product admin: every admin link of platform §2 is in her menu.
    const adminLinks = ['Dashboard', 'Task Monitor', 'Agents', 'Installations', 'Blog', 'Style Guide'];
    for (const admin of adminLinks) {
      expect(await page.getByRole('menuitem', { name: admin, exact: true }).isVisible()).toBe(true);
    }
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('banner').getByRole('link', { name: 'Login with Github' }).waitFor();
    // The session is gone server-side too: protected pages send us back to /.
    await page.goto('/agents');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('welcomes eve, who installs the App and sees the installation without a server restart', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'eve');
    await page.waitForURL(/\/installations$/);
    await page.getByRole('heading', { name: 'Welcome to Tandem' }).waitFor();
    const permissions = page.getByRole('list', { name: 'Permissions' });
    for (const text of ['View repository', 'Create pull requests', 'Review pull requests']) {
      expect(await permissions.getByText(text).isVisible()).toBe(true);
    }

    await page.getByRole('link', { name: 'Install Tandem' }).click();
    await page.getByRole('button', { name: 'Install on eve' }).click();
    await page.waitForURL(/\/installations/);
    await page.getByRole('heading', { name: 'Select Installation' }).waitFor();
    await page.getByRole('button', { name: /eve/ }).click();
    await page.waitForURL(/\/agents$/);
    expect(await page.evaluate(() => localStorage.getItem('installation'))).toMatch(/^\d+$/);
    await context.close();
  });

  it('shows bob, who is no admin, a menu without admin links', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.waitForURL(/\/agents$/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    for (const item of ['GitHub Profile', 'Repositories', 'Documentation', 'Settings', 'Logout']) {
      expect(await page.getByRole('menuitem', { name: item }).isVisible()).toBe(true);
    }
    for (const admin of ['Dashboard', 'Task Monitor', 'Installations', 'Blog', 'Style Guide']) {
      expect(await page.getByRole('menuitem', { name: admin, exact: true }).count()).toBe(0);
    }
    // bob belongs to one installation only: no installation switcher.
    expect(await page.getByText('Installation', { exact: true }).count()).toBe(0);
    await context.close();
  });

  it('gives a signed-in admin a CLI token and the style guide', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'ada');
    await page.waitForURL(/\/agents$/);
    await page.goto('/cli-auth-success');
    const file = page.getByLabel('config file', { exact: true });
    await file.waitFor();
    const config = JSON.parse((await file.textContent()) ?? '{}') as { url: string; token: string };
    expect(config.token.split('.')).toHaveLength(3);
    const me = await page.request.get('/api/users/me', {
      headers: { authorization: `Bearer ${config.token}` },
    });
    expect(((await me.json()) as { username: string }).username).toBe('ada');
    await page.goto('/styleguide');
    await page.getByRole('heading', { level: 1, name: 'Style guide' }).waitFor();
    await context.close();
  });

  it('sends a signed-out visitor of a protected page back to /', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/installations');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
