import { INSTALLATION_BANNED_MESSAGE } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

/**
 * The admin installations page (issue 21): ada, a product admin, bans her own account's
 * installation from the page, can no longer start agents there, lifts the ban and gifts credits.
 * Browser test files run one at a time, so the short ban does not reach other tests.
 */
describe('admin installations', () => {
  const browser = useBrowser();

  it('bans and unbans an installation and gifts it credits', { timeout: 120_000 }, async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, 'ada');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Installations', exact: true }).click();
    await page.waitForURL(/\/admin\/installations$/);
    await page.getByRole('heading', { name: 'Installations', level: 1 }).waitFor();

    const search = page.getByRole('search', { name: 'Search installations' });
    await search.getByLabel('Search by name or id').fill('1001');
    await search.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/searchTerm=1001/);
    const table = page.getByRole('table', { name: 'Installations' });
    await table.getByRole('button', { name: 'Ban ada' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByText(/^Banned ada; \d+ running agent\(s\) stopped\.$/).waitFor();
    await table.getByText('Banned').waitFor();
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    // After the unread count, if any.
    expect(await page.title()).toMatch(/^(\(\d+\) )?Installations · Admin · Tandem$/);
    // On a phone the table scrolls sideways, in a region a keyboard can reach.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousA11yViolations(page), `${page.url()} (phone)`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    const attempt = () =>
      page.evaluate(async () => {
        const res = await fetch('/api/agents/create-agent/ada/playground', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-tandem-csrf': '1' },
          body: JSON.stringify({ body: 'Anything', model: 'scripted' }),
        });
        return { status: res.status, body: (await res.json()) as { detail?: string } };
      });
    expect(await attempt()).toEqual({
      status: 403,
      body: expect.objectContaining({ detail: INSTALLATION_BANNED_MESSAGE }),
    });

    await table.getByRole('button', { name: 'Unban ada' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unban', exact: true }).click();
    await page.getByText('Lifted the ban on ada.').waitFor();
    await table.getByRole('button', { name: 'Ban ada' }).waitFor();

    // Earlier browser tests may have spent ada's credits (below zero, even): the gift tops them up
    // to 250 above zero, and the ledger shows exactly the gift.
    const balance = () =>
      page.evaluate(async () => {
        const res = await fetch('/api/billing/credits-remaining?installation_id=1001');
        return ((await res.json()) as { credits: number }).credits;
      });
    const before = await balance();
    const gifted = Math.max(250, Math.ceil(-before / 100) + 250);
    await table.getByRole('button', { name: 'Gift credits to ada' }).click();
    const gift = page.getByRole('form', { name: 'Gift credits' });
    await gift.getByLabel('Credits').fill(String(gifted));
    await gift.getByLabel(/^Note/).fill('Thanks for testing');
    await gift.getByRole('button', { name: 'Gift' }).click();
    const shown = await page.evaluate((n) => n.toLocaleString(), gifted);
    await page.getByText(`Gifted ${shown} credits to ada.`).waitFor();
    expect(await balance()).toBe(before + gifted * 100);
    // The ban is lifted: ada starts agents there again.
    expect((await attempt()).status).toBe(200);
    await context.close();
  });
});
