import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs } from './support/session.js';

/** A headline figure of the dashboard, as the page shows it in text. */
async function figure(page: Page, label: string): Promise<string> {
  const term = page.getByRole('term').filter({ hasText: new RegExp(`^${label}$`) });
  return (await term.locator('xpath=following-sibling::dd[1]').textContent()) ?? '';
}
/** Waits for transitions to end: axe measures contrast mid-fade otherwise (a dialog opening). */
const settled = (page: Page) =>
  page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
const number = (text: string) => Number(text.replace(/[^\d-]/g, ''));

/**
 * The admin dashboard and users table (issue 21): bob arrives from a campaign and signs in; ada,
 * a product admin, runs an agent on the scripted model and sees it on the dashboard (started, and
 * its credits spent, in text), then opens bob's lead info.
 */
describe('admin dashboard', () => {
  const browser = useBrowser();

  it('shows an agent that ran and a user’s lead info', { timeout: 180_000 }, async () => {
    // bob's visit from a campaign is tracked; signing in links it to him.
    const visitor = await browser.newPage();
    const visit = visitor.page.waitForResponse((r) => r.url().endsWith('/api/track-visit'));
    await visitor.page.goto('/?landingVariant=loginrequest&utm_source=e2e-dashboard&utm_campaign=morning');
    expect((await visit).status()).toBe(200);
    await visitor.page.waitForFunction(() => localStorage.getItem('lead_id') !== null);
    // In-app navigation: a new page load would record another visit, without the campaign.
    await visitor.page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
    await visitor.page.waitForURL(/\/login$/);
    // The login page is a lazy chunk: until it shows, the landing's link of the same name is there.
    await visitor.page.getByRole('heading', { name: 'Sign in to Tandem' }).waitFor();
    await visitor.page.getByRole('main').getByRole('link', { name: 'Login with Github' }).click();
    await visitor.page.getByRole('button', { name: 'Sign in as bob' }).click();
    await visitor.page.waitForURL(/\/agents$/);
    await visitor.context.close();

    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, 'ada');
    // Earlier browser tests may have spent ada's credits: top them up so the agent runs.
    await page.evaluate(async () => {
      const balance = await fetch('/api/billing/credits-remaining?installation_id=1001');
      const { credits } = (await balance.json()) as { credits: number };
      const res = await fetch('/api/billing/admin/gift-credits', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tandem-csrf': '1' },
        body: JSON.stringify({
          installation_id: 1001,
          credits: Math.max(1000, Math.ceil(-credits / 100) + 1000),
          description: 'Dashboard test',
        }),
      });
      if (!res.ok) throw new Error(`gift-credits answered ${res.status}`);
    });
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Dashboard', exact: true }).click();
    await page.waitForURL(/\/admin\/dashboard$/);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/days=7/);
    await page.getByRole('table', { name: 'Daily figures' }).waitFor();
    const startedBefore = number(await figure(page, 'Agents started'));
    const spentBefore = number(await figure(page, 'Credits spent'));

    const agentId = await createScriptedAgent(page, 'ada/playground', 'Please count on the dashboard');
    const metadata = () =>
      page.evaluate(async (id) => {
        const res = await fetch(`/api/agent/metadata?trajectory_id=${id}`);
        return (await res.json()) as { status: string; credits_spent: number };
      }, agentId);
    await expect
      .poll(async () => (await metadata()).status, { timeout: 60_000, interval: 500 })
      .toBe('paused');
    const spent = (await metadata()).credits_spent;
    // $1 per million input tokens, 2 million of them, +19.5 %: 239 credits (23,900 ledger units).
    expect(spent).toBe(23_900);

    await page.reload();
    await page.getByRole('table', { name: 'Daily figures' }).waitFor();
    expect(number(await figure(page, 'Agents started'))).toBe(startedBefore + 1);
    expect(number(await figure(page, 'Credits spent'))).toBe(spentBefore + spent / 100);
    // After the unread count, if any.
    expect(await page.title()).toMatch(/^(\(\d+\) )?Dashboard · Admin · Tandem$/);
    const models = page.getByRole('table', { name: 'Model spend' });
    await models.getByRole('cell', { name: 'scripted', exact: true }).waitFor();
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    // On a phone too, where the tables scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousA11yViolations(page), `${page.url()} (phone)`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    // And in the dark theme, charts included.
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await settled(page);
    expect(await seriousA11yViolations(page), `${page.url()} (dark)`).toEqual([]);
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');

    // The users table, linked from the dashboard, and bob's lead info.
    await page.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(/\/admin\/users$/);
    const search = page.getByRole('search', { name: 'Search users' });
    await search.getByLabel('Search by username or email').fill('bob');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/searchTerm=bob/);
    const table = page.getByRole('table', { name: 'Users' });
    const bob = table.getByRole('row').filter({ hasText: 'bob@example.com' });
    await bob.waitFor();
    // His first visit's utm_source: this campaign, or 'website' when other tests signed him in first.
    expect(await bob.getByRole('cell').nth(5).textContent()).toMatch(/^(e2e-dashboard|website)$/);
    // After the unread count, if any.
    expect(await page.title()).toMatch(/^(\(\d+\) )?Users · Admin · Tandem$/);
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    // On a phone the table scrolls sideways: a keyboard reaches it as a named region.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('region', { name: 'Users, scrollable' }).focus();
    expect(await seriousA11yViolations(page), `${page.url()} (phone)`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    await bob.getByRole('button', { name: 'Lead info for bob' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lead info for bob' });
    const info = dialog.getByRole('table', { name: 'Lead information' });
    const value = (key: string) =>
      info
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: key, exact: true }) })
        .getByRole('cell');
    await value('utm_campaign').waitFor();
    expect(await value('utm_campaign').textContent()).toBe('morning');
    // Keys ending in _at are dates, shown as the browser writes dates, not as ISO text.
    const firstSeen = (await value('first_seen_at').textContent()) ?? '';
    expect(firstSeen).not.toMatch(/T\d\d:\d\d/);
    expect(new Date(firstSeen).getFullYear()).toBeGreaterThan(2000);
    await dialog.getByText(/^Recent tracked events|^Failed to load tracked sessions$/).waitFor();
    await settled(page);
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Every repository across installations, from the dashboard.
    await page.goto('/admin/dashboard');
    await page.getByRole('link', { name: 'Repositories' }).click();
    await page.waitForURL(/\/admin\/repositories$/);
    const repositories = page.getByRole('search', { name: 'Search repositories' });
    await repositories.getByLabel('Search by repository or installation').fill('playground');
    await repositories.getByRole('button', { name: 'Search' }).click();
    const playground = page
      .getByRole('table', { name: 'Repositories' })
      .getByRole('row')
      .filter({ hasText: 'ada/playground' });
    await playground.waitFor();
    // At least the agent this test started.
    expect(Number(await playground.getByRole('cell').nth(3).textContent())).toBeGreaterThan(0);
    // After the unread count, if any.
    expect(await page.title()).toMatch(/^(\(\d+\) )?Repositories · Admin · Tandem$/);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousA11yViolations(page), `${page.url()} (phone)`).toEqual([]);
    await context.close();
  });
});
