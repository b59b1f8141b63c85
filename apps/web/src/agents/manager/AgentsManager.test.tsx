import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentList } from './agents-api';
import { AgentsManager } from './AgentsManager';
import { agent, bob, modelList, renderSignedIn, stubApi, type Call } from './test-support';

const working = agent({
  id: 'a-working',
  title: 'Fix the login',
  status: 'pending',
  has_unread: true,
});
const paused = agent({
  id: 'a-paused',
  title: 'Write docs',
  status: 'completed',
  is_own: false,
  creator_username: 'ada',
});

/** The server: lists from `list(call)`, archive answers from `archive(call)`. */
function api(
  list: (call: Call) => AgentList,
  archive: (call: Call) => [number, unknown] = () => [200, { success: true }],
) {
  return stubApi((call) => {
    if (call.url === '/api/models') return [200, modelList];
    if (call.url.startsWith('/api/agents')) return [200, list(call)];
    if (call.url.startsWith('/api/agent/')) return archive(call);
    return [404, { detail: 'unexpected' }];
  });
}

const table = () => screen.getByRole('table', { name: 'Agents' });
const listCalls = (calls: Call[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/agents'));
const location = () => screen.getByTestId('location').textContent;

describe('AgentsManager', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it("lists the user's own agents with the form above", async () => {
    const calls = api(() => ({ agents: [working, paused], count: 2 }));
    renderSignedIn(<AgentsManager />);
    expect(screen.getByRole('form', { name: 'New agent' })).toBeTruthy();
    const link = await within(table()).findByRole('link', { name: '▶ Fix the login' });
    expect(link.getAttribute('href')).toBe('/gh/acme/webapp/agent/a-working');
    expect(within(table()).getByRole('link', { name: '⏸ Write docs' })).toBeTruthy();
    expect(within(table()).getAllByRole('img', { name: 'Unread' })).toHaveLength(1);
    // Only the owner gets the archive button.
    expect(within(table()).getAllByRole('button', { name: 'Archive agent' })).toHaveLength(1);
    const url = new URL(listCalls(calls)[0]!.url, 'http://x');
    expect(url.pathname).toBe('/api/agents');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: '1',
      rows_per_page: '25',
      search: 'creator:me',
      orderBy: 'created_at',
    });
    // No pagination under 10 agents.
    expect(screen.queryByText('Rows per page:')).toBeNull();
  });

  it('shows sub-agents under their supervisor, active while one works, and links back', async () => {
    const source = {
      id: 's1',
      created_at: '2026-01-01T00:00:00.000Z',
      type: 'branch' as const,
      number: 7,
      branch: 'tandem-2',
      behavior: 'always',
      state: 'open' as const,
      pr_draft: null,
      pr_draft_base_branch: null,
    };
    const supervisor = agent({
      id: 'a-boss',
      title: 'Agent Report',
      status: 'paused',
      agent_type: 'supervisor',
      sub_agents: [
        {
          id: 'a-one',
          title: 'Docs one',
          status: 'open',
          repo_name: 'acme/webapp',
          sources: { 'acme/webapp': [source] },
        },
        { id: 'a-two', title: 'Docs two', status: 'paused', repo_name: 'acme/webapp', sources: {} },
      ],
    });
    const sub = agent({
      id: 'a-one',
      title: 'Docs one',
      status: 'open',
      supervisor: { id: 'a-boss', title: 'Agent Report', repo_name: 'acme/webapp' },
    });
    api(() => ({ agents: [supervisor, sub], count: 2 }));
    renderSignedIn(<AgentsManager />);
    // Paused itself, but a sub-agent works: the supervisor is active.
    expect(await within(table()).findByRole('link', { name: '▶ Agent Report' })).toBeTruthy();
    const subs = within(table()).getByRole('list', { name: 'Sub-agents of Agent Report' });
    expect(within(subs).getByRole('link', { name: '▶ Docs one' }).getAttribute('href')).toBe(
      '/gh/acme/webapp/agent/a-one',
    );
    expect(within(subs).getByRole('link', { name: '⏸ Docs two' })).toBeTruthy();
    expect(within(subs).getByText(/pull request #7/)).toBeTruthy();
    expect(within(table()).getByText('Sub-agent of').querySelector('a')?.getAttribute('href')).toBe(
      '/gh/acme/webapp/agent/a-boss',
    );
  });

  it('gives admins every creator without the form, and lists one repository for its tab', async () => {
    const calls = api(() => ({ agents: [], count: 0 }));
    renderSignedIn(<AgentsManager repository="acme/webapp" />, { user: { ...bob, admin: true } });
    expect(await screen.findByText('No Agents Found')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'New agent' })).toBeNull();
    // Admins open it on demand (to start a supervisor, say).
    fireEvent.click(screen.getByRole('button', { name: 'New agent' }));
    expect(screen.getByRole('form', { name: 'New agent' })).toBeTruthy();
    const url = new URL(listCalls(calls)[0]!.url, 'http://x');
    expect(url.pathname).toBe('/api/agents/acme/webapp');
    expect(url.searchParams.get('admin')).toBe('true');
    expect(url.searchParams.get('search')).toBe('');
  });

  it('keeps quick filters, pages and rows per page in the URL, leaving defaults out', async () => {
    const many = Array.from({ length: 25 }, (_, i) => agent({ id: `a${i}`, title: `Agent ${i}` }));
    const calls = api(() => ({ agents: many, count: 60 }));
    renderSignedIn(<AgentsManager />, { path: '/agents?page=2' });
    await within(table()).findByRole('link', { name: '⏸ Agent 0' });
    expect(new URL(listCalls(calls)[0]!.url, 'http://x').searchParams.get('page')).toBe('2');
    fireEvent.click(screen.getByRole('button', { name: 'Show archived' }));
    expect(location()).toBe('/agents?searchTerm=creator%3Ame+is%3Aarchived');
    expect((screen.getByRole('textbox', { name: 'Search agents' }) as HTMLInputElement).value).toBe(
      'creator:me is:archived',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(location()).toBe('/agents');
    fireEvent.click(await screen.findByRole('button', { name: 'Go to next page' }));
    expect(location()).toBe('/agents?page=2');
    await waitFor(() =>
      expect(listCalls(calls).some((c) => c.url.includes('search=creator%3Ame+is%3Aarchived'))).toBe(true),
    );
  });

  it('debounces the search box by 500 ms', async () => {
    api(() => ({ agents: [], count: 0 }));
    renderSignedIn(<AgentsManager />);
    await screen.findByText('No Agents Found');
    vi.useFakeTimers();
    try {
      fireEvent.change(screen.getByRole('textbox', { name: 'Search agents' }), {
        target: { value: 'login' },
      });
      vi.advanceTimersByTime(499);
      expect(location()).toBe('/agents');
      vi.advanceTimersByTime(1);
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(location()).toBe('/agents?searchTerm=login'));
  });

  it('archives from the row under is:unarchived: the row leaves and a snackbar confirms', async () => {
    const calls = api(() => ({ agents: [working], count: 1 }));
    renderSignedIn(<AgentsManager />, { path: '/agents?searchTerm=creator%3Ame+is%3Aunarchived' });
    fireEvent.click(await within(table()).findByRole('button', { name: 'Archive agent' }));
    expect(await screen.findByText('Agent archived')).toBeTruthy();
    expect(within(table()).queryByRole('link', { name: '▶ Fix the login' })).toBeNull();
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/agent/archive',
      body: { trajectory_id: 'a-working' },
    });
  });

  it('under the default search, which lists archived agents, the row stays and turns into Unarchive', async () => {
    api(() => ({ agents: [working], count: 1 }));
    renderSignedIn(<AgentsManager />);
    fireEvent.click(await within(table()).findByRole('button', { name: 'Archive agent' }));
    expect(await within(table()).findByRole('button', { name: 'Unarchive agent' })).toBeTruthy();
    expect(await screen.findByText('Agent archived')).toBeTruthy();
  });

  it('shows the notice a page handed over when it sent the user here', async () => {
    api(() => ({ agents: [], count: 0 }));
    renderSignedIn(<AgentsManager />, {
      state: { notice: { severity: 'success', message: 'Agent archived' } },
    });
    expect(await screen.findByText('Agent archived')).toBeTruthy();
  });

  it('under is:archived the row stays and turns into Unarchive', async () => {
    api(() => ({ agents: [working], count: 1 }));
    renderSignedIn(<AgentsManager />, { path: '/agents?searchTerm=is%3Aarchived' });
    fireEvent.click(await within(table()).findByRole('button', { name: 'Archive agent' }));
    expect(await within(table()).findByRole('button', { name: 'Unarchive agent' })).toBeTruthy();
    expect(within(table()).getByRole('link', { name: '▶ Fix the login' })).toBeTruthy();
  });

  it('explains a refused unarchive with a link to the active agent, and failures', async () => {
    const archived = agent({ id: 'a-old', title: 'Old', archived: true });
    let answer: [number, unknown] = [
      200,
      { success: false, error_data: { html_url: '/gh/acme/webapp/agent/a-new', number: 42 } },
    ];
    api(
      () => ({ agents: [archived], count: 1 }),
      () => answer,
    );
    renderSignedIn(<AgentsManager />);
    fireEvent.click(await within(table()).findByRole('button', { name: 'Unarchive agent' }));
    const notice = await screen.findByText(/Cannot unarchive/);
    expect(notice.textContent).toBe('Cannot unarchive: There is already an active Agent for #42');
    expect(within(notice).getByRole('link', { name: 'active Agent' }).getAttribute('href')).toBe(
      '/gh/acme/webapp/agent/a-new',
    );
    answer = [500, { detail: 'boom', code: 'internal' }];
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fireEvent.click(within(table()).getByRole('button', { name: 'Unarchive agent' }));
    expect(await screen.findByText('Failed to unarchive agent')).toBeTruthy();
  });
});
