import { z } from 'zod';
import { readStoredJson, writeStored } from '../../lib/storage';
import { fileTabTitle } from './files/file-view-model';
import { logTabTitle } from './logs/log-view-model';

/**
 * Closable workspace tabs (workspace §2); the chat tab is always there and not listed. Tabs are
 * saved per agent, so each kind is a schema: a stored layout from an older version that no
 * longer parses is dropped tab by tab instead of breaking the page.
 */
const tabSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shell'), pid: z.number() }),
  z.object({ kind: z.literal('summary') }),
  z.object({ kind: z.literal('auto-review'), actionUuid: z.string() }),
  /** A branch subscription's diff, or (sourceId null) the live diff of an agent without a branch. */
  z.object({ kind: z.literal('diff'), sourceId: z.string().nullable(), title: z.string() }),
  z.object({
    kind: z.literal('file'),
    repositoryName: z.string(),
    path: z.string(),
    ref: z.string().nullable(),
  }),
  z.object({ kind: z.literal('log'), logId: z.string(), path: z.string() }),
  z.object({ kind: z.literal('spice') }),
  z.object({ kind: z.literal('preview'), port: z.number().int() }),
]);
export type WorkspaceTab = z.infer<typeof tabSchema>;

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
    case 'spice':
      return tab.kind;
    case 'auto-review':
      return `auto-review:${tab.actionUuid}`;
    case 'diff':
      return `diff:${tab.sourceId ?? 'live'}`;
    case 'file':
      return `file:${tab.repositoryName}:${tab.ref ?? ''}:${tab.path}`;
    case 'log':
      return `log:${tab.logId}`;
    case 'preview':
      return `preview:${tab.port}`;
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
    case 'diff':
      return tab.title;
    case 'file':
      return fileTabTitle(tab.path);
    case 'log':
      return logTabTitle(tab.path);
    case 'spice':
      return 'Spice Messages';
    case 'preview':
      return `Port ${tab.port}`;
  }
}

/** Opens (or re-selects) a tab; an open tab with the same id takes the new one's fields (a diff's title). */
export function openTab(layout: Layout, tab: WorkspaceTab): Layout {
  const id = tabId(tab);
  const tabs = layout.tabs.some((t) => tabId(t) === id)
    ? layout.tabs.map((t) => (tabId(t) === id ? tab : t))
    : [...layout.tabs, tab];
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
  const parsed = readStoredJson(layoutKey(agentId)) as
    { tabs?: unknown; active?: unknown } | null | undefined;
  if (!parsed || !Array.isArray(parsed.tabs)) return EMPTY_LAYOUT;
  const tabs = parsed.tabs.flatMap((t) => {
    const result = tabSchema.safeParse(t);
    return result.success ? [result.data] : [];
  });
  const active = tabs.some((t) => tabId(t) === parsed.active) ? (parsed.active as string) : null;
  return { tabs, active };
}

export function saveLayout(agentId: string, layout: Layout): void {
  writeStored(layoutKey(agentId), JSON.stringify(layout));
}
