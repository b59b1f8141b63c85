import { readStored, writeStored } from '../../lib/storage';

/** Closable workspace tabs (workspace §2); the chat tab is always there and not listed. */
export type WorkspaceTab =
  { kind: 'shell'; pid: number } | { kind: 'summary' } | { kind: 'auto-review'; actionUuid: string };

export interface Layout {
  tabs: WorkspaceTab[];
  /** The selected tab's id, or null for the chat. */
  active: string | null;
}

export const EMPTY_LAYOUT: Layout = { tabs: [], active: null };

export function tabId(tab: WorkspaceTab): string {
  switch (tab.kind) {
    case 'shell':
      return `shell:${tab.pid}`;
    case 'summary':
      return 'summary';
    case 'auto-review':
      return `auto-review:${tab.actionUuid}`;
  }
}

export function tabTitle(tab: WorkspaceTab): string {
  switch (tab.kind) {
    case 'shell':
      return `Shell #${tab.pid}`;
    case 'summary':
      return 'Summary';
    case 'auto-review':
      return 'Auto-review';
  }
}

/** Opens (or re-selects) a tab. */
export function openTab(layout: Layout, tab: WorkspaceTab): Layout {
  const id = tabId(tab);
  const tabs = layout.tabs.some((t) => tabId(t) === id) ? layout.tabs : [...layout.tabs, tab];
  return { tabs, active: id };
}

/** Closes a tab; the selection moves to its neighbour, or back to the chat. */
export function closeTab(layout: Layout, id: string): Layout {
  const index = layout.tabs.findIndex((t) => tabId(t) === id);
  if (index < 0) return layout;
  const tabs = layout.tabs.filter((_, i) => i !== index);
  if (layout.active !== id) return { ...layout, tabs };
  const neighbour = tabs[Math.min(index, tabs.length - 1)];
  return { tabs, active: neighbour ? tabId(neighbour) : null };
}

const layoutKey = (agentId: string) => `agentLayout:${agentId}`;

/** The layout saved for this agent; anything unreadable starts fresh. */
export function loadLayout(agentId: string): Layout {
  try {
    const parsed = JSON.parse(readStored(layoutKey(agentId)) ?? 'null') as Layout | null;
    if (!parsed || !Array.isArray(parsed.tabs)) return EMPTY_LAYOUT;
    const tabs = parsed.tabs.filter((t) => ['shell', 'summary', 'auto-review'].includes(t?.kind));
    const active = tabs.some((t) => tabId(t) === parsed.active) ? parsed.active : null;
    return { tabs, active };
  } catch {
    return EMPTY_LAYOUT;
  }
}

export function saveLayout(agentId: string, layout: Layout): void {
  writeStored(layoutKey(agentId), JSON.stringify(layout));
}
