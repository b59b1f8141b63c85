import { CONVERSATION_PAGE_SIZE } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs, waitUntilPaused } from './support/session.js';

/**
 * Loading older conversation items against the real server: the feed opens on the newest page and
 * scrolling up pages back with `before=` (the oldest timestamp the server gave) to the first item.
 */
describe('paging a long conversation', () => {
  const browser = useBrowser();

  it('scrolls from the newest item back to the first one', async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, 'bob');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Give me a long conversation, please');
    // Let the scripted run finish before opening the page, so the feed starts at its newest page.
    await waitUntilPaused(page, agentId);

    const olderPages: { status: number; url: string }[] = [];
    let newestPageReads = 0;
    page.on('response', (res) => {
      if (!res.url().includes('/api/agent/conversation')) return;
      if (res.url().includes('before=')) olderPages.push({ status: res.status(), url: res.url() });
      else newestPageReads += 1;
    });
    await page.goto(`/gh/acme/webapp/agent/${agentId}`);
    const feed = page.getByRole('log', { name: 'Conversation' });
    await feed.getByText('Toured the README.').waitFor();
    const first = feed.getByText('Give me a long conversation, please');
    expect(await first.count()).toBe(0);
    // The newest page is read once: the polls that follow (every 2.5 s) name nothing newer.
    await page.waitForTimeout(3_000);
    expect(newestPageReads).toBe(1);

    // Scroll to the top until the first message shows; each time at the top loads an older page.
    for (let attempt = 0; attempt < 40 && (await first.count()) === 0; attempt++) {
      await feed.evaluate((el) => {
        el.scrollTop = 0;
        el.dispatchEvent(new Event('scroll'));
      });
      await page.waitForTimeout(250);
    }
    await first.waitFor({ timeout: 5_000 });
    await feed.getByText('Starting the long tour.').waitFor();

    // 130 views, the message, the text, the completion and the run's own items: three pages at least.
    expect(olderPages.length).toBeGreaterThanOrEqual(2);
    expect(olderPages.every((p) => p.status === 200)).toBe(true);
    for (const p of olderPages) {
      const before = new URL(p.url).searchParams.get('before') ?? '';
      expect(before).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    expect(CONVERSATION_PAGE_SIZE).toBeLessThan(130 / 2);
    await context.close();
  }, 90_000);
});
