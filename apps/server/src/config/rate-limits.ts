/**
 * Per-client limits on the unauthenticated writes (TANDEM_RATE_LIMITS). Requests per client IP
 * (as TANDEM_TRUSTED_PROXIES lets us see it) per window; authenticated API calls and polling are
 * never limited here.
 */
export interface RateLimits {
  windowMs: number;
  /** POST /api/demo/request: a person fills a form; more than a few a minute is a script. */
  demoRequest: number;
  /** POST /api/track-visit: once per signed-out page load. */
  trackVisit: number;
  /** POST /api/track-session: one batch per page unload. */
  trackSession: number;
  /** GET /auth/github and its callback: each callback calls the code host. */
  signIn: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  windowMs: 60_000,
  demoRequest: 20,
  trackVisit: 60,
  trackSession: 120,
  signIn: 60,
};

/** Largest body the public writes accept; their real bodies are a few hundred bytes. */
export const PUBLIC_WRITE_BODY_LIMIT = 16 * 1024;
