import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { parseStoredJson, readStored, writeStored } from '../../lib/storage';

/**
 * A review comment written in the diff window and not sent yet (workspace §3 "Review comment").
 * Kept per agent in local storage until the next message carries it (workspace §7).
 */
export interface PendingReviewComment {
  /** A UUID (workspace §5): only such unsent comments can be deleted. */
  id: string;
  path: string;
  body: string;
  line: number;
  start_line: number | null;
  side: 'LEFT' | 'RIGHT';
  commit_id: string | null;
  sent: false;
  created_at: string;
  updated_at: string;
}

const key = (agentId: string) => `pendingComments:${agentId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, { raw: string | null; comments: PendingReviewComment[] }>();

function isComment(value: unknown): value is PendingReviewComment {
  const c = value as Partial<PendingReviewComment> | null;
  return (
    typeof c?.id === 'string' &&
    typeof c.path === 'string' &&
    typeof c.body === 'string' &&
    typeof c.line === 'number'
  );
}

/** The stored list, the same array while storage is unchanged (useSyncExternalStore needs that). */
export function readPendingComments(agentId: string): PendingReviewComment[] {
  const raw = readStored(key(agentId));
  const hit = cache.get(agentId);
  if (hit && hit.raw === raw) return hit.comments;
  const parsed = parseStoredJson(raw);
  const comments = Array.isArray(parsed) ? parsed.filter(isComment) : [];
  cache.set(agentId, { raw, comments });
  return comments;
}

function write(agentId: string, comments: PendingReviewComment[]) {
  writeStored(key(agentId), JSON.stringify(comments));
  for (const listener of listeners) listener();
}

export function addPendingComment(
  agentId: string,
  comment: Pick<PendingReviewComment, 'path' | 'body' | 'line' | 'side'> & {
    start_line?: number | null;
    commit_id?: string | null;
  },
): PendingReviewComment {
  const now = new Date().toISOString();
  const created: PendingReviewComment = {
    id: crypto.randomUUID(),
    path: comment.path,
    body: comment.body,
    line: comment.line,
    start_line: comment.start_line ?? null,
    side: comment.side,
    commit_id: comment.commit_id ?? null,
    sent: false,
    created_at: now,
    updated_at: now,
  };
  write(agentId, [...readPendingComments(agentId), created]);
  return created;
}

/** Deletes an unsent comment; anything else (sent, or without a string id) stays (workspace §5). */
export function deletePendingComment(agentId: string, id: unknown): void {
  if (typeof id !== 'string') return;
  write(
    agentId,
    readPendingComments(agentId).filter((c) => c.id !== id || c.sent),
  );
}

/** Drops the comments a message carried, once the message was accepted. */
export function markCommentsSent(agentId: string, ids: string[]): void {
  const sent = new Set(ids);
  write(
    agentId,
    readPendingComments(agentId).filter((c) => !sent.has(c.id)),
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the same agent writes the same key.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function usePendingComments(agentId: string) {
  const comments = useSyncExternalStore(subscribe, () => readPendingComments(agentId));
  return {
    comments,
    add: useCallback(
      (comment: Parameters<typeof addPendingComment>[1]) => addPendingComment(agentId, comment),
      [agentId],
    ),
    remove: useCallback((id: unknown) => deletePendingComment(agentId, id), [agentId]),
    markSent: useCallback((ids: string[]) => markCommentsSent(agentId, ids), [agentId]),
  };
}

/** How the diff window adds a comment; null where the viewer may not steer the agent. */
export const AddCommentContext = createContext<
  ((comment: Parameters<typeof addPendingComment>[1]) => void) | null
>(null);
export const useAddComment = () => useContext(AddCommentContext);
