import type { AgentMetadata, Source } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { newDiffTabs, withCurrentDiffTitles } from './auto-open-diff';

const branch = (over: Partial<Source>): Source => ({
  id: 's1',
  created_at: '2026-11-23T10:00:00Z',
  type: 'branch',
  number: null,
  branch: 'tandem-1',
  behavior: 'always',
  state: 'open',
  pr_draft: null,
  pr_draft_base_branch: null,
  ...over,
});
const agent = (sources: Source[]) => ({ sources: { 'acme/webapp': sources } }) as unknown as AgentMetadata;
const edit = (uuid: string) => ({
  item_type: 'edit',
  action_uuid: uuid,
  pid: null,
  timestamp: '2026-11-23T10:00:00Z',
  action_type: null,
  user_id: null,
});

describe('diff tabs that open by themselves', () => {
  it('opens a new branch, or the live diff for a new edit when there is no branch', () => {
    const seen = { sources: new Set<string>(), edits: new Set(['e1']) };
    expect(newDiffTabs(agent([branch({})]), [], seen)).toEqual([
      { kind: 'diff', sourceId: 's1', title: 'tandem-1' },
    ]);
    expect(newDiffTabs(agent([]), [edit('e1')], seen)).toEqual([]);
    expect(newDiffTabs(agent([]), [edit('e1'), edit('e2')], seen)).toEqual([
      { kind: 'diff', sourceId: null, title: 'Diff' },
    ]);
  });

  it('retitles a branch tab once its pull request opens, leaving other tabs alone', () => {
    const layout = {
      tabs: [{ kind: 'diff' as const, sourceId: 's1', title: 'tandem-1' }, { kind: 'summary' as const }],
      active: 'diff:s1',
    };
    expect(withCurrentDiffTitles(layout, agent([branch({})]))).toBe(layout);
    expect(withCurrentDiffTitles(layout, agent([branch({ number: 12 })])).tabs[0]).toEqual({
      kind: 'diff',
      sourceId: 's1',
      title: '#12',
    });
  });
});
