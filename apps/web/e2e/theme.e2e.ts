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

  it('paints the landing page in the stored theme before any script loads, within the CSP', async () => {
    const { page, context } = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await page.getByRole('button', { name: 'Toggle theme' }).waitFor();
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));

    // The landing page is HTML and CSS: without its script, it is all there, already in dark.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page
      .getByRole('heading', { level: 1, name: 'AI coding agents that work on your GitHub repositories' })
      .waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Tandem home' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(18, 18, 18)',
    );

    // With it, the page's toggle switches the theme, and the app's pages follow the stored choice.
    await page.unroute('**/assets/*.js');
    await page.reload();
    await page.getByRole('main').getByRole('link').first().waitFor();
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(250, 250, 250)',
    );
    await page.goto('/docs');
    await page.getByRole('main').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    // The landing page's inline theme script ran under the Content-Security-Policy too.
    expect(errors.filter((text) => text.includes('Content Security Policy'))).toEqual([]);
    await context.close();
  });
});
