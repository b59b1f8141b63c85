import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs } from './support/session.js';

/**
 * CI as a user watches it (issue 18): the agent pushes a broken change, the local code host's CI
 * runs the tests and the commit's workflow shows in progress, then failed; auto-fix wakes the
 * agent, its fix is pushed and that commit's workflow goes green.
 */
/** Waits for `what` inside `where`; on a timeout the error shows what the feed did say. */
async function waitIn(feed: Locator, what: Locator, timeout: number): Promise<void> {
  try {
    await what.first().waitFor({ timeout });
  } catch (error) {
    const shown = await feed.innerText().catch(() => '(feed unreadable)');
    throw new Error(`the feed showed:\n${shown}`, { cause: error });
  }
}

describe('CI results in the feed', () => {
  const browser = useBrowser();

  it('shows a commit workflow running, failing, and the fix going green', { timeout: 240_000 }, async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signInAs(page, 'bob');
    const agentId = await createScriptedAgent(page, 'acme/webapp', 'Please do a ci round trip: add minus');
    await page.goto(`/gh/acme/webapp/agent/${agentId}`);
    const feed = page.getByRole('log', { name: 'Conversation' });
    const first = feed.getByTestId('feed-commit').filter({ hasText: 'Add minus' });
    await waitIn(feed, first, 120_000);
    // The slow test keeps the run going for 20 s: the feed's poll sees it queued or in progress.
    await waitIn(feed, first.getByText(/^CI: (queued|in progress)$/), 60_000);
    await waitIn(feed, first.getByText('CI: failure'), 60_000);

    // Auto-fix: the wake message quotes the failing test, then the fix's own run succeeds.
    await waitIn(feed, feed.getByText(/minus takes away/), 60_000);
    const fix = feed.getByTestId('feed-commit').filter({ hasText: 'Fix minus' });
    await waitIn(feed, fix, 90_000);
    await waitIn(feed, fix.getByText('CI: success'), 90_000);
    expect(await first.getByText('CI: failure').count()).toBe(1);
    // The feed, where CI shows. The diff window beside it (Monaco) has violations of its own,
    // recorded in docs/decisions.md as open work, so it is left out here.
    expect(await seriousA11yViolations(page, '[role="log"][aria-label="Conversation"]'), page.url()).toEqual(
      [],
    );
    await context.close();
  });
});
