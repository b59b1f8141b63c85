/**
 * `/api` and everything under it: JSON answers (and the blog's images), never a page. Compared on
 * the raw URL without splitting off its query, since every request asks (security-headers.ts).
 */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/api?');
}

/** The server's other paths that are never pages. */
const OTHER_SERVER_PREFIXES = ['/auth/', '/asset/', '/user_asset/'];

/** Paths owned by the server: an unknown one is a JSON 404, never the SPA's index.html. */
export function isServerPath(url: string): boolean {
  return isApiPath(url) || OTHER_SERVER_PREFIXES.some((prefix) => url.startsWith(prefix));
}
