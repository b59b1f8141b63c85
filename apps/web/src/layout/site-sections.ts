/**
 * Agent pages and the party page use the whole screen: no footer, and no Docs/Discord links in
 * the header (platform §2).
 */
export function isWorkspacePath(pathname: string): boolean {
  return (
    pathname === '/party' ||
    pathname.startsWith('/party/') ||
    /^\/agents?\/[^/]+\/?$/.test(pathname) ||
    /^\/gh\/[^/]+\/[^/]+\/agent\/[^/]+\/?$/.test(pathname)
  );
}

/** Pages anyone may read, where the signed-in redirects (e.g. to /installations) do not apply. */
export function isPublicPath(pathname: string): boolean {
  return /^\/(docs|blog|team|privacy|cli-auth-success|party|login|landing)(\/|$)/.test(pathname);
}
