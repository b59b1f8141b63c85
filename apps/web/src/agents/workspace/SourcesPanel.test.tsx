import { fireEvent, render as renderBare, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AgentMetadata } from '@tandem/shared';
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SourcesPanel } from './SourcesPanel';

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
function render(ui: ReactElement) {
  const queries = client();
  const view = renderBare(<QueryClientProvider client={queries}>{ui}</QueryClientProvider>);
  return {
    ...view,
    rerender: (next: ReactElement) =>
      view.rerender(<QueryClientProvider client={queries}>{next}</QueryClientProvider>),
  };
}

const source = (over: Partial<AgentMetadata['sources'][string][number]>) => ({
  id: crypto.randomUUID(),
  created_at: '2026-11-23T10:00:00Z',
  type: 'branch' as const,
  number: null,
  branch: 'tandem-1',
  behavior: 'always',
  state: 'open' as const,
  pr_draft: null,
  pr_draft_base_branch: 'main',
  ...over,
});

const agent = (sources: AgentMetadata['sources']) => ({ id: 'agent-1', sources }) as unknown as AgentMetadata;

describe('SourcesPanel', () => {
  afterEach(() => {
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('lets a steering viewer choose whether every comment or only a tag wakes the agent', async () => {
    const issue = source({ type: 'issue', number: 3, branch: null });
    const calls: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        calls.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ detail: 'Only the owner can change it', code: 'forbidden' }), {
          status: 403,
        });
      }),
    );
    render(<SourcesPanel agent={agent({ 'acme/webapp': [source({}), issue] })} canSteer />);
    // The branch alone (no pull request yet) has no comments to wake on.
    expect(screen.queryByLabelText('Wake on (Branch tandem-1)')).toBeNull();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Wake on (Issue #3)' }));
    fireEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Only when tagged' }));
    await waitFor(() =>
      expect(calls).toEqual([{ trajectory_id: 'agent-1', source_id: issue.id, behavior: 'tagged' }]),
    );
    expect(await screen.findByText('Only the owner can change it')).toBeTruthy();
  });

  it('offers no wake control to viewers who cannot steer the agent', () => {
    render(<SourcesPanel agent={agent({ 'acme/webapp': [source({ type: 'issue', number: 3 })] })} />);
    expect(screen.queryByRole('combobox')).toBeNull();
  });

  it('lists the branch with its PR and the issues, and remembers being collapsed', () => {
    const view = render(
      <SourcesPanel
        agent={agent({
          'acme/webapp': [
            source({ number: 4, state: 'merged' }),
            source({ type: 'issue', number: 1, branch: null }),
          ],
        })}
      />,
    );
    expect(screen.getByText('PR #4 (tandem-1) · merged')).toBeTruthy();
    expect(screen.getByText('Issue #1 · open')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Hide subscriptions' }));
    expect(localStorage.getItem('sourcesCollapsed:agent-1')).toBe('1');
    view.unmount();
    render(<SourcesPanel agent={agent({ 'acme/webapp': [source({})] })} />);
    expect(screen.getByRole('button', { name: 'Show subscriptions' })).toBeTruthy();
  });

  it('expands when a branch subscription arrives while the page is open', () => {
    localStorage.setItem('sourcesCollapsed:agent-1', '1');
    const issue = source({ type: 'issue', number: 1, branch: null });
    const view = render(<SourcesPanel agent={agent({ 'acme/webapp': [issue] })} />);
    expect(screen.getByRole('button', { name: 'Show subscriptions' })).toBeTruthy();
    view.rerender(<SourcesPanel agent={agent({ 'acme/webapp': [issue, source({})] })} />);
    expect(screen.getByRole('button', { name: 'Hide subscriptions' })).toBeTruthy();
    expect(localStorage.getItem('sourcesCollapsed:agent-1')).toBe('0');
  });

  it('shows nothing without sources', () => {
    const { container } = render(<SourcesPanel agent={agent({})} />);
    expect(container.textContent).toBe('');
  });
});
