import {
  agentMetadataSchema,
  archiveResponseSchema,
  conversationResponseSchema,
  eventUuidResponseSchema,
  latestTimestampSchema,
  successResponseSchema,
  type ConversationItem,
  type SpiceItem,
} from '@tandem/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { usePageVisible } from '../../lib/visibility';
import { mergeItems } from './feed-model';
import { useReaderHeaders } from './reader-auth';
import type { PendingReviewComment } from './review-comments';

/** Workspace §7: latest-timestamp every 2.5 s while visible, 15 s while hidden. */
export const FEED_POLL_VISIBLE_MS = 2500;
export const FEED_POLL_HIDDEN_MS = 15_000;

const q = (agentId: string) => `trajectory_id=${encodeURIComponent(agentId)}`;
export const metadataKey = queryKeys.agentMetadata;

/** Spice pages (admins only; empty for everyone else) merged by id, oldest first. */
function mergeSpice(current: SpiceItem[], page: SpiceItem[]): SpiceItem[] {
  if (!page.length) return current;
  const byId = new Map(current.map((item) => [item.id, item]));
  for (const item of page) byId.set(item.id, item);
  return [...byId.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

export function useAgentMetadata(agentId: string) {
  const visible = usePageVisible();
  const headers = useReaderHeaders();
  return useQuery({
    queryKey: metadataKey(agentId),
    queryFn: () => apiFetch(`/api/agent/metadata?${q(agentId)}`, { schema: agentMetadataSchema, headers }),
    refetchInterval: visible ? FEED_POLL_VISIBLE_MS : FEED_POLL_HIDDEN_MS,
    retry: false,
  });
}

/**
 * The conversation: the newest page first, older pages on demand, and the newest page fetched
 * again whenever the agent's latest timestamp moves.
 */
export function useConversation(agentId: string) {
  const visible = usePageVisible();
  const headers = useReaderHeaders();
  const [items, setItems] = useState<ConversationItem[]>([]);
  const [spice, setSpice] = useState<SpiceItem[]>([]);
  /** True once the first page arrived: what is there then is history, not news. */
  const [loaded, setLoaded] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const oldest = useRef<string | null>(null);
  const latest = useQuery({
    queryKey: queryKeys.agentLatestTimestamp(agentId),
    queryFn: () =>
      apiFetch(`/api/agent/latest-timestamp?${q(agentId)}`, { schema: latestTimestampSchema, headers }),
    refetchInterval: visible ? FEED_POLL_VISIBLE_MS : FEED_POLL_HIDDEN_MS,
    refetchIntervalInBackground: true,
  });
  const latestTimestamp = latest.data?.latest_timestamp;
  /** Moves with every poll answer, changed or not: a read that failed is tried again at the next. */
  const polledAt = latest.dataUpdatedAt;

  /** The agent's latest_timestamp as of the last newest-page read (ISO, so it sorts as text). */
  const newestRead = useRef<{ agentId: string; timestamp: string } | null>(null);
  const latestSeen = useRef<string | null | undefined>(undefined);
  const reading = useRef<{ agentId: string; again: boolean } | null>(null);
  const shownAgent = useRef(agentId);

  /** Whether the newest page may hold items we have not read: the poll names a later timestamp. */
  const stale = useCallback(() => {
    const read = newestRead.current;
    if (read?.agentId !== agentId) return true;
    const latestNow = latestSeen.current;
    return typeof latestNow === 'string' && latestNow > read.timestamp;
  }, [agentId]);

  const readNewest = useCallback((): void => {
    const reader = { agentId, again: false };
    reading.current = reader;
    apiFetch(`/api/agent/conversation?${q(agentId)}`, { schema: conversationResponseSchema, headers })
      .then((page) => {
        if (shownAgent.current !== agentId) return;
        // The latest-timestamp this page is current with (same source and format as the poll).
        if (page.latest_timestamp) newestRead.current = { agentId, timestamp: page.latest_timestamp };
        setItems((current) => mergeItems(current, page.conversation));
        setSpice((current) => mergeSpice(current, page.spice));
        setLoaded(true);
        if (oldest.current === null) {
          oldest.current = page.oldest_timestamp;
          setHasMore(page.has_more);
        }
        setError(null);
      })
      .catch((e: unknown) => {
        if (shownAgent.current === agentId) setError(e instanceof Error ? e.message : String(e));
      })
      .finally(() => {
        if (reading.current !== reader) return;
        reading.current = null;
        // The poll moved while this read was under way and names something it did not bring.
        if (reader.again && shownAgent.current === agentId && stale()) readNewest();
      });
  }, [agentId, stale, headers]);

  // The opening read does not wait for the first poll; later polls read again only when the
  // agent has an item newer than what was read (or the last read failed: it did not move what was
  // read), so the first page is fetched once.
  useEffect(() => {
    shownAgent.current = agentId;
    readNewest();
  }, [agentId, readNewest]);

  useEffect(() => {
    latestSeen.current = latestTimestamp;
    if (latestTimestamp === undefined) return;
    if (reading.current?.agentId === agentId) {
      reading.current.again = true;
      return;
    }
    if (stale()) readNewest();
  }, [agentId, latestTimestamp, polledAt, readNewest, stale]);

  const loadOlder = useCallback(async () => {
    if (!oldest.current || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const before = encodeURIComponent(oldest.current);
      const page = await apiFetch(`/api/agent/conversation?${q(agentId)}&before=${before}`, {
        schema: conversationResponseSchema,
        headers,
      });
      setItems((current) => mergeItems(current, page.conversation));
      setSpice((current) => mergeSpice(current, page.spice));
      oldest.current = page.oldest_timestamp ?? oldest.current;
      setHasMore(page.has_more);
    } finally {
      setLoadingOlder(false);
    }
  }, [agentId, loadingOlder, headers]);

  return { items, spice, loaded, hasMore, loadOlder, loadingOlder, error };
}

export function useAgentActions(agentId: string) {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: queryKeys.agent(agentId) }),
    [queryClient, agentId],
  );
  return {
    send: (body: {
      message: string;
      images: { data: string; type: string; name: string }[];
      comments: PendingReviewComment[];
    }) =>
      apiFetch(`/api/agent/message?${q(agentId)}`, {
        method: 'POST',
        body,
        schema: eventUuidResponseSchema,
      }).finally(refresh),
    interrupt: () =>
      apiFetch('/api/agent/interrupt', {
        method: 'POST',
        body: { trajectory_id: agentId },
        schema: successResponseSchema,
      }).finally(refresh),
    rename: (title: string) =>
      apiFetch('/api/agent/update-title', {
        method: 'POST',
        body: { trajectory_id: agentId, title },
        schema: agentMetadataSchema,
      }).finally(refresh),
    archive: (archived: boolean) =>
      apiFetch(`/api/agent/${archived ? 'archive' : 'unarchive'}`, {
        method: 'POST',
        body: { trajectory_id: agentId },
        schema: archiveResponseSchema,
      }).finally(refresh),
  };
}
