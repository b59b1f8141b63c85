import { fireEvent, render, screen } from '@testing-library/react';
import type { AgentMetadata } from '@tandem/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { SourcesPanel } from './SourcesPanel';

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
  afterEach(() => localStorage.clear());

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
