import { CSRF_HEADER } from '@tandem/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.js';
import { signInAs } from './support/session.js';

interface Created {
  agent_id: string;
}

/**
 * Creates an agent through the API with the page's session (the list tests need several), on the
 * scripted model, whose script for these bodies answers at once (global-setup.ts).
 */
async function createAgentByApi(page: Page, body: string): Promise<string> {
  const response = await page.request.post('/api/agents/create-agent/acme/webapp', {
    headers: { [CSRF_HEADER]: '1' },
    data: { body, model: 'scripted', images: [], review_model: null },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Created).agent_id;
}

async function archiveByApi(page: Page, agentId: string) {
  const response = await page.request.post('/api/agent/archive', {
    headers: { [CSRF_HEADER]: '1' },
    data: { trajectory_id: agentId },
  });
  expect(response.status()).toBe(200);
}

/** bob's unarchived agents, as the API counts them. */
async function unarchivedCount(page: Page): Promise<number> {
  const response = await page.request.get('/api/agents?rows_per_page=1&search=creator%3Ame+is%3Aunarchived');
  return ((await response.json()) as { count: number }).count;
}

/** At least `n` unarchived agents, so the table paginates (from 10 on). */
async function ensureAgents(page: Page, n: number) {
  for (let count = await unarchivedCount(page); count < n; count++) {
    await createAgentByApi(page, `List filler ${count + 1}`);
  }
}

const linkSelector = (agentId: string) => `a[href="/gh/acme/webapp/agent/${agentId}"]`;
const agentLink = (page: Page, agentId: string) =>
  page.getByRole('table', { name: 'Agents' }).locator(linkSelector(agentId));
const agentRow = (page: Page, agentId: string) =>
  page
    .getByRole('table', { name: 'Agents' })
    .getByRole('row')
    .filter({ has: page.locator(linkSelector(agentId)) });
/** Waits until the table shows the answer for the current URL, not the previous list. */
const settled = (page: Page) => page.locator('table[aria-label="Agents"]:not([aria-busy="true"])').waitFor();
const displayedCount = async (page: Page) => {
  const text = (await page.locator('.MuiTablePagination-displayedRows').textContent()) ?? '';
  return Number(/of (\d+)/.exec(text)?.[1]);
};
const query = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('agents manager', () => {
  const browser = useBrowser();

  it('creates an agent in the background with Ctrl+Enter and lists it', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('combobox', { name: 'Repository' }).fill('acme/webapp');
    await form.getByRole('combobox', { name: 'Repository' }).press('Escape');

    await form.getByRole('combobox', { name: 'Model', exact: true }).click();
    await page.getByRole('listbox').waitFor();
    const scripted = page.getByRole('option', { name: /Scripted \(tests\)/ });
    if (await scripted.count()) await scripted.click();
    else await page.keyboard.press('Escape');
    await form.getByRole('combobox', { name: 'Review model', exact: true }).click();
    await page.getByRole('listbox').waitFor();
    await page.getByRole('option', { name: 'Off', exact: true }).click();

    const message = form.getByRole('textbox', { name: 'Message' });
    await message.fill('Add a CONTRIBUTING guide');
    const created = page.waitForResponse((r) => r.url().includes('/api/agents/create-agent/acme/webapp'));
    await message.press('Control+Enter');
    const { agent_id } = (await (await created).json()) as Created;

    await page.getByText('Agent created in background').waitFor();
    expect(new URL(page.url()).pathname).toBe('/agents');
    expect(await message.inputValue()).toBe('');
    // The list shows the agent under the title the server keeps for it until it is renamed.
    const link = agentLink(page, agent_id);
    await link.waitFor();
    expect(await link.textContent()).toMatch(/^[▶⏸] New Chat$/);
    const listed = await page.request.get('/api/agents?search=creator%3Ame');
    const agents = ((await listed.json()) as { agents: { id: string; title: string }[] }).agents;
    expect(agents.find((a) => a.id === agent_id)?.title).toBe('New Chat');
    // The repository is remembered for next time.
    expect(await page.evaluate(() => localStorage.getItem('lastUsedRepos'))).toBe('["acme/webapp"]');
    await context.close();
  });

  it('asks for a repository, and a valid one', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const form = page.getByRole('form', { name: 'New agent' });
    await form.getByRole('textbox', { name: 'Message' }).fill('Anything');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Must select a repository').waitFor();
    await form.getByRole('combobox', { name: 'Repository' }).fill('webapp');
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Invalid Repository Name').waitFor();
    expect(new URL(page.url()).pathname).toBe('/agents');
    await context.close();
  });

  it('keeps page, rows per page and search in the URL; back and forward restore them', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await ensureAgents(page, 12);
    await page.goto('/agents');
    const table = page.getByRole('table', { name: 'Agents' });
    await page.locator('.MuiTablePagination-displayedRows').waitFor();
    const total = await displayedCount(page);
    expect(total).toBeGreaterThanOrEqual(12);

    await page.getByRole('combobox', { name: 'Rows per page:' }).click();
    await page.getByRole('option', { name: '10', exact: true }).click();
    await page.waitForURL(/rowsPerPage=10/);
    expect(query(page)).toEqual({ rowsPerPage: '10' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(10);

    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.waitForURL(/page=2/);
    expect(query(page)).toEqual({ rowsPerPage: '10', page: '2' });
    await expect
      .poll(() => page.locator('.MuiTablePagination-displayedRows').textContent())
      .toBe(`11–${Math.min(20, total)} of ${total}`);

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    expect(query(page)).toEqual({ rowsPerPage: '10' });
    await expect
      .poll(() => page.locator('.MuiTablePagination-displayedRows').textContent())
      .toBe(`1–10 of ${total}`);

    await page.goBack();
    await page.waitForURL((url) => url.search === '');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(Math.min(25, total));

    await page.goForward();
    await page.waitForURL(/rowsPerPage=10/);
    await expect.poll(() => table.locator('tbody tr').count()).toBe(10);

    const search = page.getByRole('textbox', { name: 'Search agents' });
    expect(await search.inputValue()).toBe('creator:me');
    await search.fill('zzz-nothing-matches');
    await page.waitForURL(/searchTerm=zzz-nothing-matches/);
    await table.getByText('No Agents Found').waitFor();
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('searchTerm'));
    await expect.poll(() => search.inputValue()).toBe('creator:me');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(10);
    await context.close();
  });

  it('shows archived agents with the quick filters', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    const archived = await createAgentByApi(page, 'An agent to archive');
    await archiveByApi(page, archived);
    await page.goto('/agents');

    const unarchivedList = page.waitForResponse((r) =>
      r.url().includes('search=creator%3Ame+is%3Aunarchived'),
    );
    await page.getByRole('button', { name: 'Hide archived' }).click();
    await page.waitForURL(/searchTerm=creator%3Ame\+is%3Aunarchived/);
    await unarchivedList;
    await settled(page);
    expect(await agentLink(page, archived).count()).toBe(0);

    await page.getByRole('button', { name: 'Show archived' }).click();
    await page.waitForURL(/searchTerm=creator%3Ame\+is%3Aarchived/);
    const search = page.getByRole('textbox', { name: 'Search agents' });
    await expect.poll(() => search.inputValue()).toBe('creator:me is:archived');
    await agentLink(page, archived).waitFor();
    expect(await agentRow(page, archived).getByRole('button', { name: 'Unarchive agent' }).isVisible()).toBe(
      true,
    );
    // Unarchiving under is:archived updates the row in place.
    await agentRow(page, archived).getByRole('button', { name: 'Unarchive agent' }).click();
    await page.getByText('Agent unarchived').waitFor();
    await agentRow(page, archived).getByRole('button', { name: 'Archive agent' }).waitFor();

    await page.getByRole('button', { name: 'Show all' }).click();
    await page.waitForURL((url) => !url.searchParams.has('searchTerm'));
    // The address changes before the toolbar renders the new search; a quick filter applies to the
    // search on screen (under CI load, clicking earlier applied it to the previous one).
    await expect.poll(() => search.inputValue()).toBe('creator:me');
    await page.getByRole('button', { name: 'All creators' }).click();
    await page.waitForURL(/searchTerm=$/);
    await expect.poll(() => search.inputValue()).toBe('');
    await context.close();
  });

  it('archives an agent from its row: the row leaves and the count goes down', async () => {
    const { page, context } = await browser.newPage();
    await signInAs(page, 'bob');
    await ensureAgents(page, 12);
    const target = await createAgentByApi(page, 'Archive me from the list');
    await page.goto('/agents?searchTerm=creator%3Ame+is%3Aunarchived');
    await agentLink(page, target).waitFor();
    const before = await displayedCount(page);

    await agentRow(page, target).getByRole('button', { name: 'Archive agent' }).click();
    await page.getByText('Agent archived').waitFor();
    await agentLink(page, target).waitFor({ state: 'detached' });
    expect(await displayedCount(page)).toBe(before - 1);
    expect(await unarchivedCount(page)).toBe(before - 1);
    await context.close();
  });
});
