import type { ConversationItem } from '@tandem/shared';

/** A message the user sent that the server has not shown back yet (workspace §4). */
export interface PendingMessage {
  event_uuid: string | null;
  message: string;
  image_count: number;
  /** Set when sending failed: the text stays so nothing is lost. */
  error?: string;
}

/** One row of the feed: a plain item, or a shell with its messages gathered under it. */
export type FeedEntry =
  | { kind: 'item'; key: string; item: ConversationItem }
  | { kind: 'shell'; key: string; shell: ConversationItem; messages: ConversationItem[]; active: boolean };

const itemKey = (item: ConversationItem) =>
  `${item.action_uuid}:${item.pid ?? ''}:${item.item_type === 'shell_message' ? item.timestamp : ''}`;

/** Merges pages and polls: de-duplicated by action id + pid, sorted by time (workspace §4). */
export function mergeItems(current: ConversationItem[], incoming: ConversationItem[]): ConversationItem[] {
  const byKey = new Map<string, ConversationItem>();
  for (const item of current) byKey.set(itemKey(item), item);
  // Later copies win: an item updated in place (a shell's ports, an auto-review finishing) refreshes.
  for (const item of incoming) byKey.set(itemKey(item), item);
  return [...byKey.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

/** Pending messages whose action_uuid has arrived in the feed are dropped. */
export function unresolvedPending(pending: PendingMessage[], items: ConversationItem[]): PendingMessage[] {
  const seen = new Set(items.map((i) => i.action_uuid));
  return pending.filter((p) => p.event_uuid === null || !seen.has(p.event_uuid));
}

const isShutdown = (item: ConversationItem) => item.action_type === 'ShutdownEvent';

/**
 * Feed rows: shell messages grouped under their shell (active until a shutdown message, a
 * ShutdownEvent or a WakeEvent after it), and a TaskComplete/Interrupt directly followed by a
 * shutdown hidden (workspace §4).
 */
export function feedEntries(items: ConversationItem[]): FeedEntry[] {
  const entries: FeedEntry[] = [];
  const shells = new Map<number, Extract<FeedEntry, { kind: 'shell' }>>();
  items.forEach((item, index) => {
    if (item.item_type === 'shell' && item.pid !== null) {
      const entry = { kind: 'shell' as const, key: itemKey(item), shell: item, messages: [], active: true };
      shells.set(item.pid, entry);
      entries.push(entry);
      return;
    }
    if (item.item_type === 'shell_message' && item.pid !== null) {
      const shell = shells.get(item.pid);
      if (shell) {
        shell.messages.push(item);
        if (item.message_type === 'shutdown') shell.active = false;
        return;
      }
    }
    if (item.action_type === 'ShutdownEvent' || item.action_type === 'WakeEvent') {
      for (const shell of shells.values()) shell.active = false;
    }
    const next = items[index + 1];
    const endsRun = item.action_type === 'TaskCompleteEvent' || item.action_type === 'InterruptEvent';
    if (endsRun && next && isShutdown(next)) return;
    entries.push({ kind: 'item', key: itemKey(item), item });
  });
  return entries;
}

export interface WorkflowEntry {
  workflow_name?: unknown;
  workflow_status?: unknown;
  workflow_run_id?: unknown;
}

/** Workflow cleanup (workspace §9): after 30 minutes only finished runs are worth showing. */
export const WORKFLOW_CLEANUP_MS = 30 * 60 * 1000;

/**
 * A commit's workflows as the feed shows them: entries older than 30 minutes keep only success or
 * failure (a run still 'queued' then is stale news, not progress).
 */
export function visibleWorkflows(item: ConversationItem, now: number): WorkflowEntry[] {
  const workflows = Array.isArray(item.workflows) ? (item.workflows as WorkflowEntry[]) : [];
  const age = now - Date.parse(item.timestamp);
  if (!(age > WORKFLOW_CLEANUP_MS)) return workflows;
  return workflows.filter((w) => w.workflow_status === 'success' || w.workflow_status === 'failure');
}

/**
 * A shell's messages as one transcript: the opening command is already the shell's heading, later
 * input reads `$ input`, and the exit notice starts its own line.
 */
export function shellTranscript(shell: ConversationItem, messages: ConversationItem[]): string {
  let text = '';
  messages.forEach((m, index) => {
    const message = typeof m.message === 'string' ? m.message : '';
    if (m.message_type === 'stdin') {
      if (index === 0 && message === shell.command) return;
      text += `${text && !text.endsWith('\n') ? '\n' : ''}$ ${message}${message.endsWith('\n') ? '' : '\n'}`;
    } else if (m.message_type === 'shutdown') {
      text += `${text && !text.endsWith('\n') ? '\n' : ''}${message}\n`;
    } else {
      text += message;
    }
  });
  return text;
}
