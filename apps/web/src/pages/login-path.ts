import { safeReturnPath } from '@tandem/shared';

/** The in-app login page, remembering where to come back to. */
export function loginPath(returnUrl?: string): string {
  const target = safeReturnPath(returnUrl, '');
  if (target === '/login' || target.startsWith('/login?')) {
    // Already on the login page: carry its own returnUrl over (not its error), rather than nest it.
    return loginPath(new URLSearchParams(target.slice('/login'.length)).get('returnUrl') ?? undefined);
  }
  return target && target !== '/' && !target.startsWith('/login')
    ? `/login?returnUrl=${encodeURIComponent(target)}`
    : '/login';
}

/**
 * The server route that starts the code-host OAuth flow. With the tracked visitor's lead id, so the
 * server links that lead to the user who signs in (it trusts only a lead this browser created).
 */
export function githubSignInUrl(returnUrl: string | null | undefined, leadId?: string | null): string {
  const lead = leadId ? `&lead_id=${encodeURIComponent(leadId)}` : '';
  return `/auth/github?return_uri=${encodeURIComponent(safeReturnPath(returnUrl, '/agents'))}${lead}`;
}
