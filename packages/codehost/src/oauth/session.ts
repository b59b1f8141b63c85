import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasControlChars } from '../git/repo-reads.js';
import type { Context } from '../rest/context.js';
import type { HostUser } from '../store/types.js';

export const SESSION_COOKIE = 'codehost_session';

/** The code-host user signed in to this browser (for the HTML pages). */
export function sessionUser(request: FastifyRequest, ctx: Context): HostUser | undefined {
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return undefined;
  const actor = ctx.host.actorForToken(token);
  return actor?.kind === 'user' ? actor.user : undefined;
}

export function signInAs(reply: FastifyReply, ctx: Context, login: string): void {
  const { token } = ctx.host.issueUserToken(login);
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax' });
}

/** Revokes the session's token (copies of the cookie die too) and clears the cookie. */
export function signOut(request: FastifyRequest, reply: FastifyReply, ctx: Context): void {
  const token = request.cookies[SESSION_COOKIE];
  if (token) ctx.host.revokeToken(token);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/** Only same-host relative paths are followed after a code-host sign-in. */
export function localPath(value: unknown): string {
  return typeof value === 'string' &&
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !value.startsWith('/\\') &&
    !hasControlChars(value)
    ? value
    : '/';
}

/**
 * CSRF defence for the pages' forms, on top of the SameSite=Lax cookie: a write must carry an
 * `Origin` naming this host (browsers send it on every form POST). Requests without one are refused.
 */
export function sameOrigin(request: FastifyRequest, ctx: Context): boolean {
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return false;
  const allowed = new Set<string>();
  if (request.headers.host) allowed.add(`${request.protocol}://${request.headers.host}`.toLowerCase());
  if (ctx.shapes.webUrl) allowed.add(new URL(ctx.shapes.webUrl).origin.toLowerCase());
  return allowed.has(origin.toLowerCase());
}
