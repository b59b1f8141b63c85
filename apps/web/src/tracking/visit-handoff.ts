import { webStorage } from '../lib/storage';

/**
 * The landing page (landing.html) is a page of its own, so following one of its links loads the
 * single-page app afresh, and the app records a visit per page load. The landing page has recorded
 * this visit already, with how the visitor arrived (campaign, referrer); a second record would
 * overwrite that with "website". So the landing page hands the visit over in session storage (this
 * tab only) when a link of ours is followed, and the app's next page load takes it instead of
 * recording again. Stale hand-overs (the visitor went elsewhere first) are ignored.
 */
const KEY = 'visitHandoff';
export const VISIT_HANDOFF_MAX_AGE_MS = 30_000;

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function handOffVisit(
  store: SessionStore | undefined = webStorage('session'),
  now = Date.now(),
): void {
  try {
    store?.setItem(KEY, String(now));
  } catch {
    // Storage full or blocked: the next page records a visit of its own.
  }
}

/** True once after a fresh hand-over: this page load's visit is recorded already. */
export function takeVisitHandoff(
  store: SessionStore | undefined = webStorage('session'),
  now = Date.now(),
): boolean {
  const value = store?.getItem(KEY) ?? null;
  if (value === null) return false;
  store?.removeItem(KEY);
  const age = now - Number(value);
  return age >= 0 && age <= VISIT_HANDOFF_MAX_AGE_MS;
}
