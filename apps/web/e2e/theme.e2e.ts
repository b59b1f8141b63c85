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
});
