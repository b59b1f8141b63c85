import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { FeedEntryView } from './FeedItem';
import type { FeedEntry, PendingMessage } from './feed-model';
import type { ConversationItem } from '@tandem/shared';

/** Within this many pixels of an edge, the feed pages older items in or follows new ones. */
const EDGE_PX = 100;

/** Scrolls to the bottom: the virtualiser then renders the last rows (and measures them). */
function showNewest(element: HTMLElement | null): void {
  if (element) element.scrollTop = element.scrollHeight - element.clientHeight;
}

type Row =
  | { kind: 'entry'; key: string; entry: FeedEntry }
  | { kind: 'pending'; key: string; pending: PendingMessage }
  | { kind: 'working'; key: string };

/**
 * The conversation, virtualised so thousands of items stay smooth: only the rows on screen are in
 * the DOM. It follows new items while the reader is at the bottom and keeps the reader's place
 * when older items are paged in above.
 */
export function FeedList(props: {
  entries: FeedEntry[];
  pending: PendingMessage[];
  working: boolean;
  viewerId: string | undefined;
  /** Party mode: which messages are the viewer's own (else: the viewer's user id). */
  isOwn?: ((item: ConversationItem) => boolean) | undefined;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** Bumped when the user sends: the feed jumps to the bottom. */
  followToken: number;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Whether the feed keeps its newest row in view: until the reader scrolls up, and again at the bottom. */
  const following = useRef(true);
  const lastScrollTop = useRef(0);
  const anchor = useRef<string | null>(null);
  const rows: Row[] = [
    ...props.entries.map((entry) => ({ kind: 'entry' as const, key: entry.key, entry })),
    ...props.pending.map((pending, i) => ({ kind: 'pending' as const, key: `pending-${i}`, pending })),
    ...(props.working ? [{ kind: 'working' as const, key: 'working' }] : []),
  ];
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 72,
    overscan: 8,
    getItemKey: (index) => rows[index]?.key ?? index,
  });
  const totalSize = virtualizer.getTotalSize();

  useEffect(() => {
    following.current = true;
  }, [props.followToken]);

  // Follow the newest row: after rows arrive, and whenever the content's height changes under it
  // (rows measured taller than estimated, lines wrapping when a tab opens beside the feed). After
  // older rows arrive above, stay on the row that was on top.
  const firstKey = rows[0]?.key;
  useLayoutEffect(() => {
    if (anchor.current) {
      const index = rows.findIndex((r) => r.key === anchor.current);
      anchor.current = null;
      if (index > 0) {
        virtualizer.scrollToIndex(index, { align: 'start' });
        return;
      }
    }
    if (following.current) showNewest(scrollRef.current);
    // rows.length, firstKey and the total size are what change when rows arrive or grow.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows.length, firstKey, totalSize, props.followToken]);

  // The feed's own height changes too (the window, the composer growing): keep following.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      if (following.current) showNewest(element);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop;
    // Only the reader scrolling up stops the following. Content growing below the view moves the
    // bottom away without moving the view up; judging by the distance alone stopped the feed
    // for good when a row arrived taller than estimated or the feed narrowed.
    if (el.scrollHeight - top - el.clientHeight < EDGE_PX) following.current = true;
    else if (top < lastScrollTop.current) following.current = false;
    lastScrollTop.current = top;
    if (top < EDGE_PX && props.hasMore && !props.loadingOlder) {
      anchor.current = rows[virtualizer.getVirtualItems()[0]?.index ?? 0]?.key ?? null;
      props.onLoadOlder();
    }
  };

  return (
    <Paper
      variant="outlined"
      ref={scrollRef}
      onScroll={onScroll}
      role="log"
      aria-label="Conversation"
      aria-busy={props.loadingOlder}
      sx={{ flex: 1, overflowY: 'auto', px: 2, position: 'relative' }}
    >
      {props.loadingOlder ? (
        <CircularProgress
          size={20}
          aria-label="Loading older messages"
          sx={{ position: 'sticky', top: 8, left: '50%', zIndex: 1 }}
        />
      ) : null}
      <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          const row = rows[virtual.index]!;
          return (
            <Box
              key={virtual.key}
              data-index={virtual.index}
              ref={virtualizer.measureElement}
              sx={{ position: 'absolute', top: 0, left: 0, width: '100%', py: 0.75 }}
              style={{ transform: `translateY(${virtual.start}px)` }}
            >
              {row.kind === 'entry' ? (
                <FeedEntryView entry={row.entry} viewerId={props.viewerId} isOwn={props.isOwn} />
              ) : null}
              {row.kind === 'pending' ? (
                <Box
                  sx={{ display: 'flex', justifyContent: 'flex-end', opacity: 0.7 }}
                  data-testid="pending-message"
                >
                  <Paper variant="outlined" sx={{ px: 1.5, py: 1 }}>
                    <Typography sx={{ whiteSpace: 'pre-wrap' }}>{row.pending.message}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      Sending…
                    </Typography>
                  </Paper>
                </Box>
              ) : null}
              {row.kind === 'working' ? <CircularProgress size={20} aria-label="Agent is working" /> : null}
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}
