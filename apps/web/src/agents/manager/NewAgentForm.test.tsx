import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NewAgentForm } from './NewAgentForm';
import { SUNSET_NO_NEW_AGENTS } from '@tandem/shared';
import { bob, clientConfig, modelList, renderSignedIn, stubApi, type Call } from './test-support';

const created = { event_uuid: 'ev-1', temp_title: 'Add a README', agent_id: 'agent-1' };

function api(createStatus = 200, createBody: unknown = created) {
  return stubApi((call: Call) => {
    if (call.url === '/api/models') return [200, modelList];
    if (call.url === '/api/config') return [404, { detail: 'not here' }];
    if (call.url.startsWith('/api/agents/create-agent/')) return [createStatus, createBody];
    if (call.url === '/api/agents/supervisors/acme/webapp')
      return [
        200,
        [{ id: '33333333-3333-4333-8333-333333333333', title: 'Agent Report', base_branch: null }],
      ];
    return [404, { detail: 'unexpected' }];
  });
}

const repositoryInput = () => screen.getByRole('combobox', { name: 'Repository' });
const messageInput = () => screen.getByRole('textbox', { name: 'Message' });
const form = () => screen.getByRole('form', { name: 'New agent' });

async function renderForm(repository?: string) {
  const notify = vi.fn();
  const rendered = renderSignedIn(<NewAgentForm user={bob} repository={repository} notify={notify} />);
  // The model selectors appear once GET /api/models answers.
  await screen.findByRole('combobox', { name: 'Model' });
  return { notify, ...rendered };
}

describe('NewAgentForm', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('points a user whose installation has no repositories to Create Repo', async () => {
    api();
    renderSignedIn(<NewAgentForm user={{ ...bob, repositories: [] }} notify={vi.fn()} />);
    await screen.findByRole('combobox', { name: 'Model' });
    expect(screen.getByRole('link', { name: 'Create a repository' }).getAttribute('href')).toBe('/gh');
  });

  it("after sunset mode's last day, says no new agents can be made and sends nothing", async () => {
    const calls = stubApi((call: Call) => {
      if (call.url === '/api/models') return [200, modelList];
      if (call.url === '/api/config')
        return [
          200,
          clientConfig({
            sunset: {
              last_day: '2020-01-01',
              shutdown_day: '2020-02-01',
              credits_buyable: false,
              refund_note: 'Unused credits will be refunded.',
            },
          }),
        ];
      return [200, created];
    });
    await renderForm('acme/webapp');
    expect(await screen.findByText(SUNSET_NO_NEW_AGENTS)).toBeTruthy();
    fireEvent.change(messageInput(), { target: { value: 'Add a README' } });
    const create = within(form()).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    fireEvent.keyDown(messageInput(), { key: 'Enter' });
    fireEvent.submit(form());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('has labelled inputs and asks for a repository before sending anything', async () => {
    const calls = api();
    await renderForm();
    expect(screen.getByRole('combobox', { name: 'Review model' })).toBeTruthy();
    expect(repositoryInput()).toBeTruthy();
    fireEvent.change(messageInput(), { target: { value: 'Add a README' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Must select a repository')).toBeTruthy();
    fireEvent.change(repositoryInput(), { target: { value: 'not a repo' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Invalid Repository Name')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('creates in the background on Ctrl+Enter: stays, clears the message, remembers the repository', async () => {
    localStorage.setItem('preferredModel', 'gpt-5-fast');
    localStorage.setItem('preferredReviewModel', '');
    const calls = api();
    const { notify } = await renderForm('acme/webapp');
    expect((repositoryInput() as HTMLInputElement).value).toBe('acme/webapp');
    fireEvent.change(messageInput(), { target: { value: 'Add a README' } });
    fireEvent.keyDown(messageInput(), { key: 'Enter', ctrlKey: true });
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ message: 'Agent created in background', severity: 'success' }),
    );
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/agents/create-agent/acme/webapp');
    expect(post?.body).toEqual({ body: 'Add a README', images: [], model: 'gpt-5-fast', review_model: null });
    expect((messageInput() as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('location').textContent).toBe('/agents');
    expect(JSON.parse(localStorage.getItem('lastUsedRepos') ?? '[]')).toEqual(['acme/webapp']);
  });

  it('offers supervisor mode, and a supervisor to report to, to admins only', async () => {
    const calls = api();
    const { view } = await renderForm('acme/webapp');
    expect(screen.queryByRole('switch', { name: 'Supervisor agent' })).toBeNull();
    view.unmount();

    renderSignedIn(<NewAgentForm user={{ ...bob, admin: true }} repository="acme/webapp" notify={vi.fn()} />);
    await screen.findByRole('combobox', { name: 'Model' });
    expect(screen.getByRole('switch', { name: 'Supervisor agent' })).toBeTruthy();
    // An editor may report to one of the admin's supervisors in the repository.
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Report to supervisor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Agent Report' }));
    fireEvent.change(messageInput(), { target: { value: 'Fix the footer' } });
    fireEvent.keyDown(messageInput(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      supervisor_id: '33333333-3333-4333-8333-333333333333',
    });

    fireEvent.click(screen.getByRole('switch', { name: 'Supervisor agent' }));
    expect(screen.queryByRole('combobox', { name: 'Report to supervisor' })).toBeNull();
    fireEvent.change(messageInput(), { target: { value: 'Split the migration into tasks' } });
    fireEvent.keyDown(messageInput(), { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    const post = calls.filter((c) => c.method === 'POST')[1]!.body as Record<string, unknown>;
    expect(post).toMatchObject({ body: 'Split the migration into tasks', is_supervisor: true });
    expect(post.supervisor_id).toBeUndefined();
  });

  it('opens the new agent with its first message on Create', async () => {
    localStorage.setItem('preferredModel', 'no-such-model');
    const calls = api();
    await renderForm();
    fireEvent.change(repositoryInput(), { target: { value: 'ACME/WEBAPP' } });
    fireEvent.change(messageInput(), { target: { value: 'Add a README & tests' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/gh\//));
    const url = new URL(screen.getByTestId('location').textContent ?? '', 'http://x');
    expect(url.pathname).toBe('/gh/acme/webapp/agent/agent-1');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      message: 'Add a README & tests',
      event_uuid: 'ev-1',
      temp_title: 'Add a README',
    });
    // An unknown stored model falls back to the default; the reviewer defaults to GPT-5 Reasoning.
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      model: 'sonnet-4-5',
      review_model: 'gpt-5-medium',
    });
  });

  it('shows the out-of-credits notice with its billing link on 402', async () => {
    api(402, { detail: 'Out of credits', code: 'payment_required' });
    await renderForm('acme/webapp');
    fireEvent.change(messageInput(), { target: { value: 'Go' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your installation is out of credits. Buy more now.');
    expect(within(alert).getByRole('link', { name: 'Buy more now' }).getAttribute('href')).toBe(
      '/settings#billing',
    );
  });

  it('explains any other failure', async () => {
    api(500, { detail: 'boom', code: 'internal' });
    await renderForm('acme/webapp');
    fireEvent.change(messageInput(), { target: { value: 'Go' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('There was an error creating the agent. Refresh or try again later.'),
    ).toBeTruthy();
  });

  it('creates a repository the user does not have yet in the installation of its owner first', async () => {
    const calls = stubApi((call) => {
      if (call.url === '/api/models') return [200, modelList];
      if (call.url === '/api/installation/create-repo') return [409, { detail: 'exists', code: 'conflict' }];
      return [404, { detail: 'unexpected' }];
    });
    await renderForm();
    fireEvent.change(repositoryInput(), { target: { value: 'acme/brand-new' } });
    fireEvent.change(messageInput(), { target: { value: 'Go' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText("This repository isn't installed")).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ repo_name: 'brand-new' });
    expect(calls.some((c) => c.url.startsWith('/api/agents/create-agent/'))).toBe(false);
  });
});
