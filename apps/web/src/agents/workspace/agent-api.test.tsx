import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FEED_POLL_VISIBLE_MS, useConversation } from './agent-api';

const AGENT = '6f1d8c9e-0a4b-4c2d-9e8f-1a2b3c4d5e6f';
const EARLIER = '2026-11-29T01:15:15.774Z';
const LATEST = '2026-11-29T01:15:17.142Z';

const itemAt = (uuid: string, timestamp: string) => ({
  item_type: 'message',
  action_uuid: uuid,
  pid: null,
  timestamp,
  action_type: null,
  user_id: null,
  message: uuid,
});
const older = itemAt('a0', '2026-11-29T01:15:15.774000Z');
const newer = itemAt('a1', '2026-11-29T01:15:17.142000Z');

const page = (items: unknown[], latest: string) =>
  new Response(
    JSON.stringify({
      conversation: items,
      spice: [],
      has_more: false,
      oldest_timestamp: older.timestamp,
      latest_timestamp: latest,
    }),
    { status: 200 },
  );

/**
 * The feed's two reads as the server answers them for an agent that has just finished: the opening
 * read brings the page before its last item, the poll (answered after it) names the last item's
 * time from then on, and the read that poll starts fails.
 */
function stubServer() {
  const reads: number[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/api/agent/latest-timestamp')) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return new Response(JSON.stringify({ latest_timestamp: LATEST }), { status: 200 });
      }
      reads.push(Date.now());
      if (reads.length === 1) return page([older], EARLIER);
      if (reads.length === 2) return new Response('{"detail":"boom"}', { status: 500 });
      return page([older, newer], LATEST);
    }),
  );
  return reads;
}

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('useConversation', () => {
  it('reads the newest page again at the next poll after a failed read, then not again', async () => {
    const reads = stubServer();
    const { result } = renderHook(() => useConversation(AGENT), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.error).toBeTruthy());
    expect(result.current.items.map((i) => i.action_uuid)).toEqual(['a0']);

    // The agent has finished: the poll names the same timestamp from now on, and must not leave
    // the feed without the items the failed read missed.
    await waitFor(() => expect(result.current.items.map((i) => i.action_uuid)).toEqual(['a0', 'a1']), {
      timeout: FEED_POLL_VISIBLE_MS + 2000,
    });
    expect(result.current.error).toBeNull();
    expect(reads).toHaveLength(3);

    // Polls naming nothing newer than the page read do not read it again.
    await new Promise((resolve) => setTimeout(resolve, FEED_POLL_VISIBLE_MS + 500));
    expect(reads).toHaveLength(3);
  }, 15_000);
});
