import type { AgentMetadata, ConversationItem } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { diffTabFor } from './AgentToolbarMenus';
import type { WorkspaceTab } from './tabs';

interface Seen {
  sources: Set<string>;
  edits: Set<string>;
}

const branchSources = (agent: AgentMetadata) =>
  Object.values(agent.sources)
    .flat()
    .filter((s) => s.type === 'branch');

/**
 * What should open by itself as the agent works (workspace §4): a new branch subscription opens
 * its diff tab; a new edit while the agent has no branch opens the live diff. What was already
 * there when the page loaded is history and opens nothing.
 */
export function newDiffTabs(agent: AgentMetadata, items: ConversationItem[], seen: Seen): WorkspaceTab[] {
  const sources = branchSources(agent);
  const tabs: WorkspaceTab[] = sources
    .filter((s) => !seen.sources.has(s.id))
    .map((s) => ({
      kind: 'diff',
      sourceId: s.id,
      title: s.number !== null ? `#${s.number}` : (s.branch ?? 'Diff'),
    }));
  const newEdit = items.some((i) => i.item_type === 'edit' && !seen.edits.has(i.action_uuid));
  if (!sources.length && newEdit) tabs.push(diffTabFor(agent));
  return tabs;
}

export function useAutoOpenDiff(
  agent: AgentMetadata | undefined,
  items: ConversationItem[],
  loaded: boolean,
  open: (tab: WorkspaceTab) => void,
): void {
  const seen = useRef<Seen | null>(null);
  const openRef = useRef(open);
  useEffect(() => {
    openRef.current = open;
  });
  useEffect(() => {
    if (!agent || !loaded) return;
    const current: Seen = {
      sources: new Set(branchSources(agent).map((s) => s.id)),
      edits: new Set(items.filter((i) => i.item_type === 'edit').map((i) => i.action_uuid)),
    };
    if (seen.current) for (const tab of newDiffTabs(agent, items, seen.current)) openRef.current(tab);
    seen.current = current;
  }, [agent, items, loaded]);
}
