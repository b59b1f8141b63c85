import {
  agentMetadataSchema,
  conversationResponseSchema,
  latestTimestampSchema,
  WORKING_STATUSES,
  type AgentMetadata,
  type ConversationItem,
} from '@tandem/shared';
import { InvalidArgumentError } from 'commander';
import type { ApiClient } from './api.js';
import type { Context } from './context.js';
import { CliError, EXIT } from './errors.js';
import { FeedPrinter, itemKey, mergeItems } from './render.js';

/** Consecutive failed polls (network, 502-504) tolerated while following. */
const MAX_POLL_FAILURES = 5;

/** The web app polls latest-timestamp every 2.5 s (workspace §9); so does the CLI by default. */
export const DEFAULT_POLL_SECONDS = 2.5;

export const isWorking = (status: string) => (WORKING_STATUSES as readonly string[]).includes(status);

export const metadata = (client: ApiClient, agentId: string): Promise<AgentMetadata> =>
  client.get('/api/agent/metadata', agentMetadataSchema, { trajectory_id: agentId });

/**
 * Conversation pages from the newest back, until a page reaches `since` (items already known) or
 * there are no more. Without `since` that is the whole conversation.
 */
async function loadItems(client: ApiClient, agentId: string, since?: string): Promise<ConversationItem[]> {
  let items: ConversationItem[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await client.get('/api/agent/conversation', conversationResponseSchema, {
      trajectory_id: agentId,
      before,
    });
    items = mergeItems(items, page.conversation);
    const reached = since !== undefined && page.conversation.some((i) => i.timestamp <= since);
    if (reached || !page.has_more || !page.oldest_timestamp) return items;
    before = page.oldest_timestamp;
  }
}

export interface ShowOptions {
  follow: boolean;
  json: boolean;
  intervalSeconds: number;
}

/**
 * Prints an agent's conversation; with `follow`, keeps printing new items, polling
 * latest-timestamp, until the agent stops working. JSON: an array of items, or one item per line
 * (NDJSON) when following, so a script can read them as they come.
 */
export async function showConversation(
  ctx: Context,
  client: ApiClient,
  agentId: string,
  options: ShowOptions,
) {
  const printer = new FeedPrinter(ctx.style);
  const seen = new Set<string>();
  let newest: string | undefined;
  const emit = (items: ConversationItem[]) => {
    if (options.json && !options.follow) {
      ctx.out(JSON.stringify(items, null, 2));
      return;
    }
    if (options.json) {
      for (const item of items)
        if (!seen.has(itemKey(item))) {
          seen.add(itemKey(item));
          ctx.out(JSON.stringify(item));
        }
      return;
    }
    const lines = printer.render(items);
    if (lines.length) ctx.out(lines.join('\n'));
  };
  const track = (items: ConversationItem[]) => {
    const last = items.at(-1)?.timestamp;
    if (last && (!newest || last > newest)) newest = last;
  };

  // Status first, then items: anything written before the agent stopped is in what we read next.
  let meta = await metadata(client, agentId);
  let latest = (
    await client.get('/api/agent/latest-timestamp', latestTimestampSchema, { trajectory_id: agentId })
  ).latest_timestamp;
  const items = await loadItems(client, agentId);
  track(items);
  emit(items);
  if (!options.follow) return;

  const intervalMs = Math.max(50, options.intervalSeconds * 1000);
  let failures = 0;
  while (isWorking(meta.status)) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    try {
      meta = await metadata(client, agentId);
      const now = (
        await client.get('/api/agent/latest-timestamp', latestTimestampSchema, { trajectory_id: agentId })
      ).latest_timestamp;
      failures = 0;
      if (now === latest) continue;
      const fresh = await loadItems(client, agentId, newest);
      latest = now;
      track(fresh);
      emit(fresh);
    } catch (error) {
      // A server restart or a network blip should not end a long follow; a lasting outage does.
      const transient =
        error instanceof CliError && (error.exitCode === EXIT.network || (error.status ?? 0) >= 502);
      if (!transient || ++failures > MAX_POLL_FAILURES) throw error;
      ctx.err(ctx.style.dim(`(${error.message}; retrying)`));
    }
  }
  if (!options.json) ctx.out(ctx.style.dim(`— agent ${meta.status}: "${meta.title}"`));
}

/** `--interval` as a positive number of seconds. */
export function parseInterval(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError('must be a positive number of seconds');
  return seconds;
}
