import { isPublicPath } from '../layout/site-sections';

/**
 * Where a signed-in user is sent before a page renders (platform §2), or null to stay. Pure, so the
 * rules are unit-tested without a browser.
 */
export function signedInRedirect(pathname: string, hasActiveInstallation: boolean): string | null {
  const dashboard = /^\/dashboard\/(activity|settings|repo|installations)(\/.*)?$/.exec(pathname);
  if (dashboard) return `/${dashboard[1]}${dashboard[2] ?? ''}`;
  // Public pages (docs, blog…) stay readable for a user who has not installed the App yet.
  if (!hasActiveInstallation && pathname !== '/installations' && !isPublicPath(pathname))
    return '/installations';
  if (pathname === '/' || pathname === '/activity') return '/agents';
  return null;
}

/** `?timeout=30s` (or `30`) → milliseconds; null when absent or unreadable. */
export function parseTimeoutParam(value: string | null): number | null {
  if (!value) return null;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!match) return null;
  const amount = Number(match[1]);
  const unit = match[2] ?? 's';
  return Math.round(amount * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1000));
}
