import { recordPageVisit, startSessionTracking } from '../tracking/page-tracking';
import { trackingRefused } from '../tracking/traffic';
import { handOffVisit } from '../tracking/visit-handoff';

/**
 * The landing page's visit and session tracking, loaded after its first paint: recording a visit
 * validates the answer with the shared schemas (zod), whose set-up would otherwise run before it.
 * Returns what stops it (tests; the page never does).
 */
export function trackLanding(): () => void {
  if (trackingRefused(navigator, window)) return () => {};
  const listening = new AbortController();
  let recorded = false;
  recordPageVisit().then(
    () => (recorded = true),
    (error: unknown) => console.warn('Visit tracking failed', error),
  );
  // Following one of our links loads the app, which must not record this visit again.
  document.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest('a') : null;
      if (recorded && link && link.origin === window.location.origin) handOffVisit();
    },
    { signal: listening.signal },
  );
  const session = startSessionTracking(() => null);
  session.tracker.pageView(window.location.pathname);
  return () => {
    listening.abort();
    session.stop();
  };
}
