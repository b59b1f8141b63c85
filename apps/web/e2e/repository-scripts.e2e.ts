import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

describe('repository scripts', () => {
  const browser = useBrowser();

  // The agent clones, runs the repository's tests, pushes and opens a pull request: about 10 s
  // alone, but the browser suite shares one server with the files before it (local CI runs on
  // every push, other agents' sandboxes), and three clean-clone CI runs ended this test at the
  // suite's 60 s limit; in the two whose dumps say, the pull request was opened right then. The
  // wait for the pull request below allows 60 s by itself, so the test gets room for it.
  it(
    'shows product admins the Scripts section, which starts a script-writing agent',
    { timeout: 120_000 },
    async () => {
      const { page, context } = await browser.newPage();
      await signInAs(page, 'ada');
      await page.goto('/gh/acme/webapp/settings');
      const section = page.getByRole('region', { name: 'Scripts' });
      await section.getByText('This repository has no scripts yet.').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);

      await section.getByRole('button', { name: 'Generate Scripts' }).click();
      await page.waitForURL(/\/gh\/acme\/webapp\/agent\/[0-9a-f-]{36}$/);
      const feed = page.getByRole('log', { name: 'Conversation' });
      await feed.getByText('Write the Tandem scripts for this repository', { exact: false }).waitFor();

      // Back on the settings page the agent's pull request (or the work under way) shows.
      await feed
        .getByText(/Opened pull request #\d+/)
        .first()
        .waitFor({ timeout: 60_000 });
      await page.goto('/gh/acme/webapp/settings');
      await section.getByRole('link', { name: /^Pull request #\d+$/ }).waitFor();
      await section.getByRole('button', { name: 'Regenerate Scripts' }).waitFor();
      await context.close();
    },
  );

  it('hides the section from users who are not product admins', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/gh/acme/webapp/settings');
    await page.getByRole('region', { name: 'Bot Behavior' }).waitFor();
    expect(await page.getByRole('region', { name: 'Scripts' }).count()).toBe(0);
    await context.close();
  });
});
