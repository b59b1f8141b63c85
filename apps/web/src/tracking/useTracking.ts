import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { recordPageVisit, startSessionTracking } from './page-tracking';
import type { SessionTracker } from './session-tracker';
import { trackingRefused } from './traffic';
import { takeVisitHandoff } from './visit-handoff';

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
    // Arrived by a link of the landing page, which recorded this visit already: another record
    // would overwrite how the visitor came (their campaign) with "website".
    if (takeVisitHandoff()) return;
    recordPageVisit().catch((error: unknown) => console.warn('Visit tracking failed', error));
  }, [refused, loading, user]);

  useEffect(() => {
    if (refused) return;
    const { tracker: session, stop } = startSessionTracking(() => userId.current);
    tracker.current = session;
    return stop;
  }, [refused]);

  useEffect(() => {
    tracker.current?.pageView(location.pathname);
  }, [location.pathname]);
}
