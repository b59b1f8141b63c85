import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

describe('404 page', () => {
  const browser = useBrowser();

  it('shows the spec texts and offers login to a signed-out visitor', async () => {
    const { page, context } = await browser.newPage();
    const response = await page.goto('/does-not-exist');
    expect(response?.status()).toBe(200);
    await page.getByText('404: Page not found').waitFor();
    expect(await page.getByText("Looks like there's nothing here :(").isVisible()).toBe(true);
    const login = page.getByRole('main').getByRole('link', { name: 'Login with Github' });
    await login.waitFor();
    expect(await login.getAttribute('href')).toBe('/login?returnUrl=%2Fdoes-not-exist');
    await login.click();
    await page.waitForURL('**/login?returnUrl=%2Fdoes-not-exist');
    await page.getByRole('heading', { name: 'Sign in to Tandem' }).waitFor();
    const href = await page
      .getByRole('main')
      .getByRole('link', { name: 'Login with Github' })
      .getAttribute('href');
    const signIn = new URL(href ?? '', 'http://x');
    expect(signIn.pathname).toBe('/auth/github');
    expect(signIn.searchParams.get('return_uri')).toBe('/does-not-exist');
    // The visit's lead goes along once tracking has stored it (platform §7 Login: lead_id).
    const lead = await page.evaluate(() => localStorage.getItem('lead_id'));
    if (signIn.searchParams.has('lead_id')) expect(signIn.searchParams.get('lead_id')).toBe(lead);
    await context.close();
  });

  it('links back to the docs instead of login under /docs', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/docs/no-such-page');
    await page.getByText('404: Page not found').waitFor();
    expect(await page.getByRole('link', { name: 'Back to docs' }).getAttribute('href')).toBe('/docs');
    expect(await page.getByRole('main').getByRole('link', { name: 'Login with Github' }).count()).toBe(0);
    await context.close();
  });

  it('answers unknown API paths with JSON, not the page', async () => {
    const { page, context } = await browser.newPage();
    const response = await page.goto('/api/nope');
    expect(response?.status()).toBe(404);
    expect(await response?.json()).toEqual({ detail: 'Not Found', code: 'not_found' });
    await context.close();
  });
});
