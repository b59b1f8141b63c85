import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

describe('theme toggle', () => {
  const browser = useBrowser();

  it('Alt+T switches the theme, stores it, and the choice survives a reload', async () => {
    const { page, context } = await browser.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const lightBackground = await background();

    await page.keyboard.press('Alt+KeyT');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await background()).not.toBe(lightBackground);

    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await background()).not.toBe(lightBackground);

    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await context.close();
  });

  it('paints the app shell in the stored theme before any script loads, within the CSP', async () => {
    const { page, context } = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.emulateMedia({ colorScheme: 'light' });
    // A page of the single-page app (/ is the landing page for visitors, tested below).
    await page.goto('/login');
    await page.getByRole('button', { name: 'Toggle theme' }).waitFor();
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));

    // Without the app's scripts only index.html is left: its header bar, already in dark.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.locator('#root > header').textContent()).toBe('Tandem');
    const shellBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(shellBackground).toBe('rgb(18, 18, 18)');

    // With them, React replaces the shell with the real header in the same colours.
    await page.unroute('**/assets/*.js');
    await page.reload();
    await page.getByRole('button', { name: 'Toggle theme' }).waitFor();
    expect(await page.getByText('Tandem', { exact: true }).count()).toBe(1);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(shellBackground);
    // The inline theme script ran under the Content-Security-Policy (allowed by its hash).
    expect(errors.filter((text) => text.includes('Content Security Policy'))).toEqual([]);
    await context.close();
  });

  it('paints the landing page in the stored theme with no script before its paint, within the CSP', async () => {
    const { page, context } = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await page.getByRole('main').getByRole('link').first().waitFor();
    // The landing page runs no script before its first paint: no inline one at all.
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect((await context.cookies()).find((cookie) => cookie.name === 'theme')?.value).toBe('dark');

    // Without its script the page is all there, already in dark: the server marked it by the cookie.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page
      .getByRole('heading', { level: 1, name: 'AI coding agents that work on your GitHub repositories' })
      .waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Tandem home' }).isVisible()).toBe(true);
    expect(await background()).toBe('rgb(18, 18, 18)');
    // The toggle shows the theme a click switches to.
    expect(await page.locator('#theme-toggle .to-light').isVisible()).toBe(true);
    expect(await page.locator('#theme-toggle .to-dark').isVisible()).toBe(false);

    // With it, the page's toggle switches the theme, and the app's pages follow the stored choice.
    await page.unroute('**/assets/*.js');
    await page.reload();
    await page.getByRole('main').getByRole('link').first().waitFor();
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    expect(await background()).toBe('rgb(250, 250, 250)');
    await page.goto('/docs');
    await page.getByRole('main').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    expect(errors.filter((text) => text.includes('Content Security Policy'))).toEqual([]);
    await context.close();
  });

  it("paints the landing page in the system's theme without a choice, and takes up an old choice", async () => {
    const { page, context } = await browser.newPage();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    // No cookie, no script: the CSS follows the system's dark, toggle icon included.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await background()).toBe('rgb(18, 18, 18)');
    expect(await page.locator('#theme-toggle .to-light').isVisible()).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(250, 250, 250)');
    expect(await page.locator('#theme-toggle .to-dark').isVisible()).toBe(true);

    // A choice stored before the cookie existed: the script applies it and mirrors it into the
    // cookie, so the next visit is painted in it by the server.
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.unroute('**/assets/*.js');
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await background()).toBe('rgb(18, 18, 18)');
    expect((await context.cookies()).find((cookie) => cookie.name === 'theme')?.value).toBe('dark');
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });
});
