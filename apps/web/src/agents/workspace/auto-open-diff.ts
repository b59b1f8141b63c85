import type { AgentMetadata, ConversationItem } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { diffTabFor, diffTabOf } from './AgentToolbarMenus';
import type { Layout, WorkspaceTab } from './tabs';

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
  const tabs = sources.filter((s) => !seen.sources.has(s.id)).map(diffTabOf);
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

/**
 * The layout as shown: a diff tab's saved title follows its subscription, so a branch tab becomes
 * '#12' once its pull request opens.
 */
export function withCurrentDiffTitles(layout: Layout, agent: AgentMetadata): Layout {
  const sources = new Map(branchSources(agent).map((s) => [s.id, s]));
  const tabs = layout.tabs.map((tab) => {
    const source = tab.kind === 'diff' && tab.sourceId ? sources.get(tab.sourceId) : undefined;
    const current = source ? diffTabOf(source) : tab;
    // The same object when nothing changed, so an unchanged layout stays the same layout.
    return current.kind === 'diff' && tab.kind === 'diff' && current.title !== tab.title ? current : tab;
  });
  return tabs.some((tab, i) => tab !== layout.tabs[i]) ? { ...layout, tabs } : layout;
}
