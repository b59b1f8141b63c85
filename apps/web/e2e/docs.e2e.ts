import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

const ROUTES: [string, string][] = [
  ['/docs', 'Introduction'],
  ['/docs/installation', 'Installation'],
  ['/docs/pricing', 'Pricing'],
  ['/docs/behavior/triggers', 'Triggers'],
  ['/docs/behavior/context', 'Context'],
  ['/docs/behavior/scripts', 'Scripts'],
  ['/docs/behavior/readme', 'Readme'],
  ['/docs/features/actions', 'Actions'],
  ['/docs/features/environment', 'Environment'],
  ['/docs/features/auto-review', 'Auto-review'],
  ['/docs/cli', 'CLI'],
  ['/docs/examples', 'Examples'],
];

describe('docs', () => {
  const browser = useBrowser();

  it('renders all twelve docs pages with the sidebar', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    for (const [path, title] of ROUTES) {
      await page.goto(path);
      await page.getByRole('article').getByRole('heading', { level: 1, name: title }).waitFor();
      const sidebar = page.getByRole('navigation', { name: 'Documentation' });
      expect(await sidebar.getByRole('link').count()).toBe(12);
      expect(await sidebar.evaluate((el) => el.getBoundingClientRect().width)).toBe(200);
    }
    await page.goto('/docs/pricing');
    await page.getByRole('article').getByText('New installations get 3000 free credits').waitFor();
    await context.close();
  });

  it('shows the not-found view for an unknown docs path, linking back to the docs', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/docs/nope/never');
    await page.getByText('404: Page not found').waitFor();
    await page.getByRole('link', { name: 'Back to docs' }).click();
    await page.getByRole('article').getByRole('heading', { level: 1, name: 'Introduction' }).waitFor();
    await context.close();
  });

  it('scrolls to a hash anchor and follows links inside an article', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 600 } });
    await page.goto('/docs/behavior/scripts#dev-servers-and-previews');
    const heading = page.getByRole('heading', { name: 'Dev servers and previews' });
    await heading.waitFor();
    await page.waitForFunction(() => window.scrollY > 0);
    await page.goto('/docs');
    await page.getByRole('article').getByRole('link', { name: 'Pricing' }).click();
    await page.getByRole('article').getByRole('heading', { level: 1, name: 'Pricing' }).waitFor();
    await context.close();
  });

  it('opens the docs menu from a drawer on small screens', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 390, height: 800 } });
    await page.goto('/docs/cli');
    await page.getByRole('article').getByRole('heading', { level: 1, name: 'CLI' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Documentation' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open docs menu' }).click();
    await page
      .getByRole('navigation', { name: 'Documentation' })
      .getByRole('link', { name: 'Examples' })
      .click();
    await page.getByRole('article').getByRole('heading', { level: 1, name: 'Examples' }).waitFor();
    // On small screens the header's Docs link is hidden too.
    expect(await page.getByRole('banner').getByRole('link', { name: 'Docs' }).count()).toBe(0);
    await context.close();
  });

  it('hides the footer and the Docs link on agent pages', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto('/privacy-unknown-page');
    await page.getByRole('contentinfo').waitFor();
    expect(await page.getByRole('banner').getByRole('link', { name: 'Docs' }).isVisible()).toBe(true);
    await page.goto('/agents/0195f7c2-0000-7000-8000-000000000000');
    await page.getByRole('banner').waitFor();
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    expect(await page.getByRole('banner').getByRole('link', { name: 'Docs' }).count()).toBe(0);
    await context.close();
  });
});
