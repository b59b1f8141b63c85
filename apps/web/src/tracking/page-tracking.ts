import { CSRF_HEADER, STORAGE_KEYS, type SessionEvent } from '@tandem/shared';
import { readStored } from '../lib/storage';
import { recordVisit } from './lead';
import { SessionTracker, TRACKING } from './session-tracker';
import { leadData } from './traffic';

/**
 * The browser side of visit and session tracking (platform §4, §9), free of React: the SPA's
 * useTracking and the landing page (landing/landing-entry.ts) both run it.
 */

/** Beacon first (it survives the page closing), a keepalive fetch when beacons are unavailable. */
function sendBatch(events: SessionEvent[], userId: string | null) {
  const body = JSON.stringify({
    user_id: userId,
    lead_id: readStored(STORAGE_KEYS.leadId),
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

/** A signed-out visitor's visit: how they arrived (the page's URL and referrer) and their variant. */
export function recordPageVisit(): Promise<string> {
  const data = leadData(
    new URLSearchParams(window.location.search),
    document.referrer,
    window.location.hostname,
    readStored(STORAGE_KEYS.landingVariant),
  );
  // Shared with the party page, which needs the same lead (tracking/lead.ts).
  return recordVisit(data);
}

/**
 * Page views and scrolling, batched and sent once when the page is left or after inactivity.
 * `stop` ends the session (sending its batch) and removes the listeners.
 */
export function startSessionTracking(userId: () => string | null): {
  tracker: SessionTracker;
  stop: () => void;
} {
  const session = new SessionTracker(
    {
      now: () => Date.now(),
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (id) => window.clearTimeout(id),
    },
    (events) => sendBatch(events, userId()),
  );
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
  const stop = () => {
    window.clearTimeout(scan);
    window.removeEventListener('scroll', onWindowScroll);
    window.removeEventListener('pagehide', onLeave);
    document.removeEventListener('visibilitychange', onVisibility);
    for (const [element, listener] of scanned) element.removeEventListener('scroll', listener);
    session.end();
  };
  return { tracker: session, stop };
}
