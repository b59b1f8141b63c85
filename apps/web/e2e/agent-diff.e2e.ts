import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { signInAs, createScriptedAgent } from './support/session.js';

/**
 * Earlier browser tests leave agents running on the same server (four at a time), so the first
 * result of a new agent may wait for a free slot: generous waits, and test limits to match.
 */
const AGENT_WAIT = { timeout: 90_000 };
const TEST_LIMIT = 150_000;

/** Waits for an agent's result; on a timeout the error shows what the feed did say. */
async function waitForAgent(feed: Locator, text: string): Promise<void> {
  try {
    await feed.getByText(text).first().waitFor(AGENT_WAIT);
  } catch (error) {
    const shown = await feed.innerText().catch(() => '(feed unreadable)');
    throw new Error(`"${text}" did not appear; the feed showed:\n${shown}`, { cause: error });
  }
}

describe('the diff window, file viewer, logs and Run Scripts', () => {
  const browser = useBrowser();

  it(
    "shows the agent's commit in Monaco and Create PR opens the code host's compare page",
    async () => {
      const { page, context } = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await signInAs(page, 'bob');
      const agentId = await createScriptedAgent(
        page,
        'acme/webapp',
        'Please add subtract to the math module',
      );
      await page.goto(`/gh/acme/webapp/agent/${agentId}`);
      const feed = page.getByRole('log', { name: 'Conversation' });
      await waitForAgent(feed, 'Added subtract.');
      const commit = feed.getByTestId('feed-commit');
      await commit.getByText(/Committed [0-9a-f]{7} to tandem-\d+: Add subtract/).waitFor();
      await commit.getByText('Format script passed').waitFor();

      // View Diff opens the branch's diff: the commit, the changed file and its new line in Monaco.
      await page.getByRole('button', { name: 'View Diff' }).click();
      const panel = page.getByRole('tabpanel', { name: /^tandem-\d+$/ });
      await panel.getByRole('heading', { name: 'src/math.js' }).waitFor();
      await panel.getByRole('button', { name: 'Commit range' }).waitFor();
      const mathSection = panel.getByRole('region', { name: 'src/math.js' });
      const editor = mathSection.locator('.monaco-diff-editor');
      // Editors mount as their file scrolls near the viewport.
      await mathSection.scrollIntoViewIfNeeded();
      await editor.waitFor();
      // Monaco renders spaces as no-break spaces.
      await expect
        .poll(async () => (await editor.innerText()).replace(/\u00a0/g, ' '), { timeout: 20_000 })
        .toContain('return a - b;');

      // Create PR opens the compare page of the code host with base, head, title and body.
      const popup = context.waitForEvent('page');
      await panel.getByRole('button', { name: 'Create PR' }).click();
      const compare = await popup;
      await compare.waitForLoadState();
      const url = new URL(compare.url());
      expect(url.pathname).toMatch(/^\/acme\/webapp\/compare\/main\.\.\.tandem-\d+$/);
      expect(url.searchParams.get('title')).toBe('Add subtract');
      expect(url.searchParams.has('body')).toBe(true);
      expect(await compare.getByRole('textbox', { name: 'Title' }).inputValue()).toBe('Add subtract');
      await compare.close();

      // A review comment on a line waits above the message box, deletable, and goes with the next message.
      await mathSection.getByRole('button', { name: 'Comment on src/math.js' }).click();
      const form = page.getByRole('form', { name: 'Comment on src/math.js' });
      await form.getByRole('textbox', { name: 'Line' }).fill('2');
      await form.getByRole('textbox', { name: 'Comment' }).fill('Call it minus?');
      await form.getByRole('button', { name: 'Add comment' }).click();
      const waiting = page.getByRole('list', { name: 'Pending review comments' });
      await waiting.getByText('src/math.js:2 · Call it minus?').waitFor();
      await page.getByRole('button', { name: 'Send' }).click();
      await waiting.waitFor({ state: 'detached' });
      const sent = feed.getByRole('list', { name: 'Review comments' });
      await sent.getByText('Call it minus?').waitFor();

      // The format script's log opens from the commit.
      await commit.getByRole('button', { name: 'View log' }).click();
      const log = page.getByRole('tabpanel', { name: 'format.sh' });
      await log.getByText('Succeeded').waitFor();
      await expect.poll(() => log.getByLabel('Output').innerText()).toContain('formatted');

      // A file the agent viewed opens in the file viewer, read at the agent's branch.
      await feed.getByRole('button', { name: 'src/math.js' }).click();
      const file = page.getByRole('tabpanel', { name: 'math.js' });
      await file.getByText('export function subtract(a, b) {').waitFor();

      // Run Scripts lists .tandem/run and runs a script in the agent's sandbox.
      await page.getByRole('button', { name: 'Run Scripts' }).click();
      await page.getByRole('menuitem', { name: 'hello.sh' }).click();
      await page.getByText('Started .tandem/run/hello.sh').waitFor();
      await waitForAgent(feed, 'hello from a script');
      await context.close();
    },
    TEST_LIMIT,
  );

  it(
    'out of credits: the feed says so and a new message is kept with the credits notice (402)',
    async () => {
      const { page, context } = await browser.newPage();
      // ada's own installation, which no other browser test spends from.
      await signInAs(page, 'ada');
      const agentId = await createScriptedAgent(page, 'ada/playground', 'Please spend every credit');
      await page.goto(`/gh/ada/playground/agent/${agentId}`);
      const feed = page.getByRole('log', { name: 'Conversation' });
      await waitForAgent(feed, 'Your installation is out of credits.');

      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Keep going please');
      await box.press('Enter');
      const composer = page.getByRole('form', { name: 'Send a message' });
      await composer.getByText('Your installation is out of credits.').waitFor();
      expect(await composer.getByRole('link', { name: 'Buy more now' }).getAttribute('href')).toBe(
        '/settings#billing',
      );
      // The message is kept for when credits are back, and never shown as sent.
      expect(await box.inputValue()).toBe('Keep going please');
      expect(await feed.getByTestId('pending-message').count()).toBe(0);
      await context.close();
    },
    TEST_LIMIT,
  );
});
