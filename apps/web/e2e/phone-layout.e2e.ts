import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs } from './support/session.js';

const PHONE = { width: 390, height: 844 };

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box');
  return found;
}

/** Nothing on the page is wider than the screen (no sideways scrolling of the whole page). */
async function fitsTheScreen(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
}

describe('on a phone-width screen', () => {
  const browser = useBrowser();

  it('lays out the workspace title, the model selectors and the agents table', async () => {
    const { page } = await browser.newPage();
    await page.setViewportSize(PHONE);
    await signInAs(page, 'bob');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Please read the README');
    await page.goto(`/gh/acme/webapp/agent/${agentId}`);
    await page.getByRole('log', { name: 'Conversation' }).getByText('Read the README.').waitFor();

    // The title shows, on one line, across the width, above the buttons.
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.textContent()).toMatch(/New Chat|README/);
    const titleBox = await box(title);
    const lineHeight = await title.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(titleBox.height).toBeLessThanOrEqual(lineHeight * 1.5);
    const diffButton = await box(page.getByRole('button', { name: 'View Diff' }));
    expect(diffButton.y).toBeGreaterThanOrEqual(titleBox.y + titleBox.height - 1);

    // Both model selectors share one row, inside the screen, neither indented under the other.
    const model = await box(page.getByRole('combobox', { name: 'Model', exact: true }));
    const review = await box(page.getByRole('combobox', { name: 'Review model' }));
    expect(Math.abs(model.y - review.y)).toBeLessThan(4);
    expect(review.x + review.width).toBeLessThanOrEqual(PHONE.width);
    expect(model.width).toBeGreaterThan(100);
    await fitsTheScreen(page);

    // The agents table keeps the title readable (the table scrolls sideways, not the page).
    await page.goto('/gh/acme/webapp/agents');
    const link = page.getByRole('table', { name: 'Agents' }).getByRole('link').first();
    await link.waitFor();
    expect((await box(link)).width).toBeGreaterThan(60);
    const linkLines = await link.evaluate((el) => el.getClientRects().length || 1);
    expect(linkLines).toBe(1);
    await fitsTheScreen(page);
  });
});
