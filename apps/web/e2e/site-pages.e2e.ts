import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

describe('public site pages', () => {
  const browser = useBrowser();

  it('goes from the blog list to a post, and shows Post not found for a missing one', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/blog');
    await page.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    await page.getByRole('link', { name: /Introducing Tandem/ }).click();
    await page.waitForURL(/\/blog\/introducing-tandem$/);
    await page.getByRole('heading', { level: 1, name: 'Introducing Tandem' }).waitFor();
    expect(await page.getByText('3000 free credits', { exact: false }).isVisible()).toBe(true);
    expect(await page.title()).toBe('Introducing Tandem · Tandem');

    const html = await (await page.request.get('/blog/introducing-tandem')).text();
    expect(html).toContain('<meta property="og:image:width" content="1200" />');

    await page.goto('/blog/there-is-no-such-post');
    await page.getByText('Post not found').waitFor();
    await context.close();
  });

  it('shows the blog error when posts cannot be loaded', async () => {
    const { page, context } = await browser.newPage();
    await page.route('**/api/blog/', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page.goto('/blog');
    await page
      .getByText('There was an error fetching posts. Please reload or try again later.')
      .waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('shows the team, the privacy policy and the footer links', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto('/team');
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    expect(await page.getByRole('article').count()).toBe(4);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    expect(await page.getByText('Last updated February 2025').isVisible()).toBe(true);
    expect(await page.getByText(/not used to train models/).isVisible()).toBe(true);
    expect(
      await page.getByRole('contentinfo').getByRole('link', { name: 'Contact' }).getAttribute('href'),
    ).toMatch(/^mailto:/);
    await context.close();
  });

  it('sends a visitor who is not an admin away from the style guide', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/styleguide');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('asks a signed-out visitor of the CLI page to sign in, and shows a token from the query', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/cli-auth-success');
    await page.getByText('Sign in to get a token for the CLI.').waitFor();
    await page.goto('/cli-auth-success?token=abc123');
    const file = page.getByLabel('config file', { exact: true });
    await file.waitFor();
    expect(await file.textContent()).toContain('"token": "abc123"');
    await context.close();
  });
});
