import { CSRF_HEADER, STORAGE_KEYS, type SessionEvent } from '@tandem/shared';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { SessionTracker, TRACKING } from './session-tracker';
import { leadData, trackingRefused } from './traffic';
import { recordVisit } from './lead';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Beacon first (it survives the page closing), a keepalive fetch when beacons are unavailable. */
function sendBatch(events: SessionEvent[], userId: string | null) {
  const body = JSON.stringify({
    user_id: userId,
    lead_id: storage()?.getItem(STORAGE_KEYS.leadId) ?? null,
    events: JSON.stringify(events),
  });
  if (navigator.sendBeacon?.('/api/track-session', new Blob([body], { type: 'text/plain' }))) return;
  void fetch('/api/track-session', {
    method: 'POST',
    body,
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'text/plain', [CSRF_HEADER]: '1' },
  }).catch((error: unknown) => console.warn('Sending tracking events failed', error));
}

function scrollPercent(element: Element | null): number {
  const el = element ?? document.scrollingElement ?? document.documentElement;
  const range = el.scrollHeight - el.clientHeight;
  return range > 0 ? (el.scrollTop / range) * 100 : 0;
}

/**
 * Visit and session tracking (platform §4, §9): a signed-out visitor's visit is recorded once per
 * page load; page views and scrolling are batched and sent once. Nothing runs for visitors who
 * refuse tracking.
 */
export function useTracking(): void {
  const { user, loading } = useCurrentUser();
  const location = useLocation();
  const tracker = useRef<SessionTracker | null>(null);
  const userId = useRef<string | null>(null);
  const visited = useRef(false);
  userId.current = user?.user_id ?? null;
  const refused = typeof navigator !== 'undefined' && trackingRefused(navigator, window);

  useEffect(() => {
    if (refused || loading || user || visited.current) return;
    visited.current = true;
    const store = storage();
    const params = new URLSearchParams(window.location.search);
    const data = leadData(
      params,
      document.referrer,
      window.location.hostname,
      store?.getItem(STORAGE_KEYS.landingVariant) ?? null,
    );
    // Shared with the party page, which needs the same lead (tracking/lead.ts).
    recordVisit(data).catch((error: unknown) => console.warn('Visit tracking failed', error));
  }, [refused, loading, user]);

  useEffect(() => {
    if (refused) return;
    const session = new SessionTracker(
      {
        now: () => Date.now(),
        setTimeout: (fn, ms) => window.setTimeout(fn, ms),
        clearTimeout: (id) => window.clearTimeout(id),
      },
      (events) => sendBatch(events, userId.current),
    );
    tracker.current = session;
    const onWindowScroll = () => session.scroll(scrollPercent(null));
    const onLeave = () => session.end();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') session.end();
    };
    window.addEventListener('scroll', onWindowScroll, { passive: true });
    window.addEventListener('pagehide', onLeave);
    document.addEventListener('visibilitychange', onVisibility);
    // Scrollable panes (docs, lists) scroll themselves, not the window: find them once settled.
    const scanned: [Element, () => void][] = [];
    const scan = window.setTimeout(() => {
      for (const element of document.querySelectorAll('body *')) {
        const style = getComputedStyle(element);
        if (!/(auto|scroll)/.test(style.overflowY) || element.scrollHeight <= element.clientHeight) continue;
        const listener = () =>
          session.scroll(scrollPercent(element), element.id || element.tagName.toLowerCase());
        element.addEventListener('scroll', listener, { passive: true });
        scanned.push([element, listener]);
      }
    }, TRACKING.scanDelayMs);
    return () => {
      window.clearTimeout(scan);
      window.removeEventListener('scroll', onWindowScroll);
      window.removeEventListener('pagehide', onLeave);
      document.removeEventListener('visibilitychange', onVisibility);
      for (const [element, listener] of scanned) element.removeEventListener('scroll', listener);
      session.end();
    };
  }, [refused]);

  useEffect(() => {
    tracker.current?.pageView(location.pathname);
  }, [location.pathname]);
}
