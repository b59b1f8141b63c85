import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';

describe('landing page', () => {
  const browser = useBrowser();

  it('shows New Repo and Existing Repo in the twobutton variant', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/?landingVariant=twobutton');
    const main = page.getByRole('main');
    await main.getByRole('link', { name: 'New Repo' }).waitFor();
    expect(await main.getByRole('link', { name: 'Existing Repo' }).getAttribute('href')).toBe(
      '/login?returnUrl=%2Fgh',
    );
    // The server sends no Origin-Agent-Cluster header (docs/decisions.md "Landing paint: no
    // origin-keyed process hint"): Chromium keys the page's agent cluster by origin without it.
    expect(await page.evaluate(() => window.originAgentCluster)).toBe(true);
    expect(await main.getByRole('button', { name: 'Request a Demo' }).count()).toBe(0);
    await context.close();
  });

  it('shows login and demo in loginrequest, remembers it, and ignores an invalid variant', async () => {
    const { page, context } = await browser.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto('/landing?landingVariant=loginrequest');
    const main = page.getByRole('main');
    await main.getByRole('button', { name: 'Request a Demo' }).waitFor();
    expect(await main.getByRole('link', { name: 'Login with Github' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('landingVariant'))).toBe('loginrequest');

    await page.goto('/?landingVariant=rainbow');
    await main.getByRole('button', { name: 'Request a Demo' }).waitFor();
    expect(warnings).toContain('Ignoring invalid landingVariant "rainbow"');
    await context.close();
  });

  it('runs the demo request dialog through validation, success and error', async () => {
    const { page, context } = await browser.newPage();
    await page.goto('/?landingVariant=loginrequest');
    await page.getByRole('button', { name: 'Request a Demo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request a Demo' });
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await dialog.getByText('Email is required').waitFor();
    await dialog.getByRole('textbox', { name: /email/i }).fill('not-an-email');
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByRole('textbox', { name: /email/i }).fill('cto@example.com');
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await dialog.getByText('Request Submitted!').waitFor();
    expect(await dialog.getByText("We'll be in touch within 24 hours").isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.route('**/api/demo/request', (route) => route.fulfill({ status: 500, body: 'down' }));
    await page.getByRole('button', { name: 'Request a Demo' }).click();
    await dialog.getByRole('textbox', { name: /email/i }).fill('cto@example.com');
    await dialog.getByRole('button', { name: 'Request Demo' }).click();
    await dialog.getByText('Something went wrong').waitFor();
    await dialog.getByRole('button', { name: 'Try Again' }).click();
    await dialog.getByRole('button', { name: 'Request Demo' }).waitFor();
    await context.close();
  });

  it('records the visit for a signed-out visitor and keeps the lead id', async () => {
    const { page, context } = await browser.newPage();
    const visit = page.waitForResponse((r) => r.url().endsWith('/api/track-visit'));
    await page.goto('/?utm_source=newsletter&utm_campaign=launch');
    expect((await visit).status()).toBe(200);
    await page.waitForFunction(() => localStorage.getItem('lead_id') !== null);
    const lead = JSON.parse((await page.evaluate(() => localStorage.getItem('lead'))) ?? '{}');
    expect(lead).toMatchObject({ utm_source: 'newsletter', utm_campaign: 'launch' });
    await context.close();
  });

  it('keeps the campaign of a visit when the visitor moves on to the app', async () => {
    const { page, context } = await browser.newPage();
    const visits: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/track-visit')) visits.push(request.postData() ?? '');
    });
    await page.goto('/?landingVariant=loginrequest&utm_source=newsletter');
    await page.waitForFunction(() => localStorage.getItem('lead_id') !== null);
    // The landing page is not the app: its links load the app, which must not record another visit.
    await page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
    await page.getByRole('heading', { name: 'Sign in to Tandem' }).waitFor();
    await page.getByRole('button', { name: 'Toggle theme' }).waitFor();
    expect(visits).toHaveLength(1);
    expect(JSON.parse(visits[0]!).lead_data).toMatchObject({ utm_source: 'newsletter' });
    // A later page load of its own is a visit of its own, as before.
    await page.goto('/docs');
    await expect.poll(() => visits.length).toBe(2);
    await context.close();
  });

  it('loads no editor or docs code on the landing page', async () => {
    const { page, context } = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto('/?landingVariant=twobutton');
    await page.getByRole('main').getByRole('link', { name: 'New Repo' }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => /monaco|editor|DocsPage|markdown/i.test(url))).toEqual([]);
    const bodies = await Promise.all(scripts.map((url) => page.request.get(url).then((r) => r.text())));
    expect(bodies.some((body) => body.includes('monaco-editor') || body.includes('DOMPurify'))).toBe(false);
    await context.close();
  });

  it("paints before its script runs, keeping the buttons' space so nothing moves when they show", async () => {
    const { page, context } = await browser.newPage();
    const slot = page.locator('.variant-slot');
    const main = page.getByRole('main');
    // Its script held back: the text is painted, the buttons' space kept, no wrong button shown.
    await page.route('**/assets/landing-*.js', (route) => route.abort());
    await page.goto('/?landingVariant=loginrequest');
    await page.getByRole('heading', { level: 1 }).waitFor();
    const kept = (await slot.boundingBox())!;
    expect(kept.height).toBeGreaterThan(30);
    expect(await main.getByRole('link').count()).toBe(0);
    expect(await main.getByRole('button').count()).toBe(0);

    // With it, the chosen buttons show in that space, and the page records no layout shift.
    await page.unroute('**/assets/landing-*.js');
    await page.reload();
    await main.getByRole('button', { name: 'Request a Demo' }).waitFor();
    expect(await slot.boundingBox()).toEqual(kept);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & { value: number })[];
            resolve(entries.reduce((sum, entry) => sum + entry.value, 0));
          }).observe({ type: 'layout-shift', buffered: true });
          // No entry at all is no shift: the observer then never calls back.
          setTimeout(() => resolve(0), 500);
        }),
    );
    expect(shift).toBe(0);
    await context.close();
  });
});
