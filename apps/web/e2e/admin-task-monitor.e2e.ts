import { CSRF_HEADER } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/axe.js';
import { useBrowser } from './support/browser.js';
import { createScriptedAgent, signInAs, topUpCredits } from './support/session.js';

/** The monitor's row of one agent (its title links to the agent's workspace). */
const taskRow = (page: Page, agentId: string) =>
  page
    .getByRole('table', { name: 'Tasks' })
    .getByRole('row')
    .filter({ has: page.locator(`a[href$="/agent/${agentId}"]`) });

/** Clicks the row's action and confirms it in the dialog. */
async function act(page: Page, agentId: string, action: 'Restart' | 'Fail' | 'Stop') {
  // The table refreshes every 10 s: the action appears once the agent's state allows it.
  await taskRow(page, agentId)
    .getByRole('button', { name: new RegExp(`^${action} `) })
    .click({ timeout: 25_000 });
  const dialog = page.getByRole('dialog', { name: `${action} this task?` });
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * The admin area's task monitor and agents table (issue 21): ada, a product admin, stops,
 * restarts and fails an agent from the monitor and sees each in the agent's feed; she finds bob's
 * agent, which her own agents list does not show her, on the admin agents page.
 */
describe('admin task monitor', () => {
  const browser = useBrowser();

  it('restarts, fails and stops a task, each shown in the agent feed', { timeout: 180_000 }, async () => {
    const { page, context } = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signInAs(page, 'ada');
    // ada's own installation (1001): the 402 test elsewhere spends all its credits.
    await topUpCredits(page, 1001);
    const agentId = await createScriptedAgent(page, 'ada/playground', 'Please run the admin monitor check');
    // The agent's workspace in a second tab: the feed polls, so each action shows up there.
    const feed = await context.newPage();
    await feed.goto(`/gh/ada/playground/agent/${agentId}`);
    await feed.getByRole('button', { name: 'Pause agent' }).waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Task Monitor', exact: true }).click();
    await page.waitForURL(/\/admin\/task_monitor$/);
    await page.getByRole('heading', { name: 'Task Monitor', level: 1 }).waitFor();
    await taskRow(page, agentId).waitFor();
    // The account menu fades out: axe would see its half-transparent items.
    await page.locator('[role="menu"]').waitFor({ state: 'detached' });
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);

    await act(page, agentId, 'Stop');
    await page.getByText(/^Stopped: /).waitFor();
    await feed.getByText('An admin stopped this agent.').waitFor({ timeout: 15_000 });
    await feed.getByRole('button', { name: 'Pause agent' }).waitFor({ state: 'detached', timeout: 15_000 });
    // The admin's notice says who stopped it; the feed does not also claim the user paused it.
    expect(await feed.getByText('Paused by the user.').count()).toBe(0);

    await act(page, agentId, 'Restart');
    await feed.getByText('An admin restarted this agent.').waitFor({ timeout: 15_000 });
    await feed.getByRole('button', { name: 'Pause agent' }).waitFor({ timeout: 15_000 });

    await act(page, agentId, 'Fail');
    await feed.getByText('An admin marked this agent as failed.').waitFor({ timeout: 15_000 });
    await feed.getByRole('button', { name: 'Pause agent' }).waitFor({ state: 'detached', timeout: 15_000 });
    await taskRow(page, agentId).getByText('failed', { exact: true }).waitFor({ timeout: 15_000 });
    // Failed stays failed: the run that was stopped did not turn it back into paused.
    const status = await page.evaluate(async (id) => {
      const res = await fetch('/api/admin/tasks?kind=agent&status=failed&rows_per_page=100');
      const list = (await res.json()) as { tasks: { id: string }[] };
      return list.tasks.some((t) => t.id === id);
    }, agentId);
    expect(status).toBe(true);
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    await context.close();
  });

  it('lists every installation’s agents on the admin agents page', { timeout: 120_000 }, async () => {
    const bob = await browser.newPage();
    await signInAs(bob.page, 'bob');
    const title = `Admin agents needle ${Date.now()}`;
    const created = await bob.page.request.post('/api/agents/create-agent/acme/webapp', {
      headers: { [CSRF_HEADER]: '1' },
      data: { body: title, images: [], review_model: null },
    });
    expect(created.status()).toBe(200);
    const agentId = ((await created.json()) as { agent_id: string }).agent_id;
    await bob.context.close();

    const { page, context } = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAs(page, 'ada');
    // ada's own list (not the admin one) does not show bob's agent.
    const own = await page.request.get(`/api/agents?search=${encodeURIComponent(title)}`);
    expect(((await own.json()) as { count: number }).count).toBe(0);

    // Opened by its address (the menu link is checked in sign-in.e2e.ts): right after sign-in the
    // installations sync re-renders the header, which can close a menu just opened.
    await page.goto('/admin/agents');
    // /agents has an "Agents" heading too: wait for the admin page itself before typing.
    await page.getByText(/^Every installation’s agents\./).waitFor();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await page.getByLabel('Search agents').fill(`creator:bob ${title}`);
    // The search reaches the URL after its debounce, and the table then shows only that agent.
    await expect
      .poll(() => new URL(page.url()).searchParams.get('searchTerm'), { timeout: 10_000 })
      .toBe(`creator:bob ${title}`);
    await page.locator('table[aria-label="Agents"]:not([aria-busy="true"])').waitFor();
    const table = page.getByRole('table', { name: 'Agents' });
    await table.locator(`a[href$="/agent/${agentId}"]`).waitFor({ timeout: 15_000 });
    // Polled: for a moment after the URL changes, the previous (unfiltered) rows may still show.
    await expect.poll(() => table.locator('a[href*="/agent/"]').count(), { timeout: 10_000 }).toBe(1);
    expect(await seriousA11yViolations(page), page.url()).toEqual([]);
    await context.close();
  });
});
