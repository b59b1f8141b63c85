import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

/** Waits for `what`; on a timeout the error shows what `where` did say. */
async function waitIn(where: Locator, what: Locator, timeout: number): Promise<void> {
  try {
    await what.first().waitFor({ timeout });
  } catch (error) {
    const shown = await where.innerText().catch(() => '(unreadable)');
    throw new Error(`the page showed:\n${shown}`, { cause: error });
  }
}

/**
 * Supervisor agents (issue 21): ada, a product admin, starts a supervisor from the new-agent form.
 * It starts a sub-agent in acme/webapp and one in acme/api; each opens a pull request on the local
 * code host and reports back. The supervisor's feed shows both reports, and the agents manager
 * shows the sub-agents under their supervisor, each linking back to it.
 */
describe('supervisor agents', () => {
  const browser = useBrowser();

  it('starts two sub-agents that open pull requests and report back', { timeout: 240_000 }, async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await signInAs(page, 'ada');
    await page.getByRole('button', { name: 'New agent' }).click();
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('combobox', { name: 'Repository' }).fill('acme/webapp');
    await form.getByRole('combobox', { name: 'Repository' }).press('Escape');
    await form.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page.getByRole('option', { name: /Scripted \(tests\)/ }).click();
    await form.getByRole('switch', { name: 'Supervisor agent' }).check();
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    await form.getByRole('textbox', { name: 'Message' }).fill('e2e supervise: two repositories');
    const created = page.waitForResponse((r) => r.url().includes('/api/agents/create-agent/acme/webapp'));
    await form.getByRole('button', { name: 'Create' }).click();
    const { agent_id: supervisorId } = (await (await created).json()) as { agent_id: string };
    await page.waitForURL(new RegExp(`/gh/acme/webapp/agent/${supervisorId}`));

    const feed = page.getByRole('log', { name: 'Conversation' });
    const reports = feed.getByTestId('sub-agent-report');
    await waitIn(feed, feed.getByText('Both sub-agents reported back.'), 150_000);
    expect(await reports.count()).toBe(2);
    for (const repo of ['acme/webapp', 'acme/api']) {
      const report = reports.filter({ hasText: `in ${repo}` });
      await report.getByText('Finished').waitFor();
      const pull = report.getByRole('link', { name: /^Pull request #\d+$/ });
      expect(await pull.getAttribute('href')).toMatch(new RegExp(`/${repo}/pull/\\d+$`));
    }
    // The page shows its sub-agents; the title falls back to 'Agent Report'.
    await page.getByRole('heading', { name: /Agent Report/ }).waitFor();
    const subs = page.getByRole('list', { name: 'Sub-agents of Agent Report' });
    await subs.getByRole('link').nth(1).waitFor();
    expect(await subs.getByRole('link').count()).toBe(2);
    expect(await seriousA11yViolations(page, '[role="log"][aria-label="Conversation"]'), page.url()).toEqual(
      [],
    );

    // The agents manager: the sub-agents under their supervisor, which counts as idle now.
    await page.goto('/agents');
    const table = page.getByRole('table', { name: 'Agents' });
    const listed = table.getByRole('list', { name: 'Sub-agents of Agent Report' }).first();
    await waitIn(table, listed.getByRole('link').nth(1), 30_000);
    expect(await listed.getByRole('link').count()).toBe(2);
    expect(await listed.innerText()).toMatch(/pull request #\d+/);
    expect(await table.getByText('Sub-agent of').count()).toBeGreaterThanOrEqual(2);
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);

    // A sub-agent's page links back to its supervisor.
    await listed.getByRole('link').first().click();
    await page.waitForURL(/\/gh\/acme\/(webapp|api)\/agent\//);
    // Navigation is a transition: the manager (whose rows say 'Sub-agent of' too) stays on screen
    // until the workspace's chunk has loaded.
    await page.getByRole('log', { name: 'Conversation' }).waitFor();
    await page.getByText('Sub-agent of').getByRole('link', { name: 'Agent Report' }).click();
    await page.waitForURL(new RegExp(`/gh/acme/webapp/agent/${supervisorId}`));
    await context.close();
  });
});
