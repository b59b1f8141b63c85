import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs, waitUntilPaused } from './support/session.js';

/** Whether the element is on screen inside the feed's scroll box (not only in the DOM). */
async function inFeedView(feed: Locator, element: Locator): Promise<boolean> {
  const [box, row] = await Promise.all([feed.boundingBox(), element.boundingBox()]);
  if (!box || !row) return false;
  return row.y >= box.y - 1 && row.y + row.height <= box.y + box.height + 1;
}

/**
 * The feed keeps its newest row in view while the reader is at the bottom, also when the rows
 * grow under it (a tab opening beside the feed, a narrower window: long lines wrap), and leaves
 * a reader who scrolled up where they are.
 */
describe('following the newest row', () => {
  const browser = useBrowser();

  it('keeps the newest row in view when the feed narrows, not after the reader scrolls up', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInAs(page, 'bob');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Follow a narrowing feed, please');
    await waitUntilPaused(page, agentId);
    await page.goto(`/gh/acme/webapp/agent/${agentId}`);
    const feed = page.getByRole('log', { name: 'Conversation' });
    const newest = feed.getByText('Followed to the very end.').last();
    await newest.waitFor();
    await expect.poll(() => inFeedView(feed, newest), { timeout: 5_000 }).toBe(true);

    // Narrower (still the wide layout): every paragraph wraps into more lines.
    await page.setViewportSize({ width: 700, height: 800 });
    await expect.poll(() => inFeedView(feed, newest), { timeout: 5_000 }).toBe(true);

    // A reader who scrolled up stays there when the feed widens again.
    await feed.evaluate((el) => el.scrollBy(0, -400));
    await page.waitForTimeout(300);
    const top = await feed.evaluate((el) => el.scrollTop);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(500);
    expect(await inFeedView(feed, newest)).toBe(false);
    expect(await feed.evaluate((el) => el.scrollTop)).toBeLessThanOrEqual(top);

    // Back at the bottom, the feed follows again.
    await feed.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.setViewportSize({ width: 700, height: 800 });
    await expect.poll(() => inFeedView(feed, newest), { timeout: 5_000 }).toBe(true);
    await context.close();
  }, 90_000);
});
