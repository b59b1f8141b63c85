import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

describe('repository scripts', () => {
  const browser = useBrowser();

  it('shows product admins the Scripts section, which starts a script-writing agent', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'ada');
    await page.goto('/gh/acme/webapp/settings');
    const section = page.getByRole('region', { name: 'Scripts' });
    await section.getByText('This repository has no scripts yet.').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await section.getByRole('button', { name: 'Generate Scripts' }).click();
    await page.waitForURL(/\/gh\/acme\/webapp\/agent\/[0-9a-f-]{36}$/);
    const feed = page.getByRole('log', { name: 'Conversation' });
    // A fast agent's commit and pull request carry the same words: any of them shows it started.
    await feed.getByText('Write the Tandem scripts for this repository', { exact: false }).first().waitFor();

    // Back on the settings page the agent's pull request (or the work under way) shows.
    await feed
      .getByText(/Opened pull request #\d+/)
      .first()
      .waitFor({ timeout: 60_000 });
    await page.goto('/gh/acme/webapp/settings');
    await section.getByRole('link', { name: /^Pull request #\d+$/ }).waitFor();
    await section.getByRole('button', { name: 'Regenerate Scripts' }).waitFor();
    await context.close();
  });

  it('hides the section from users who are not product admins', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await page.goto('/gh/acme/webapp/settings');
    await page.getByRole('region', { name: 'Bot Behavior' }).waitFor();
    expect(await page.getByRole('region', { name: 'Scripts' }).count()).toBe(0);
    await context.close();
  });
});
