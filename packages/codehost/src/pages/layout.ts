import type { FastifyReply, FastifyRequest } from 'fastify';
import { localPath, sessionUser } from '../oauth/session.js';
import type { Context } from '../rest/context.js';
import { esc, hidden, page } from './html.js';

/** Where "Sign in" should come back to: the page being looked at (GETs only; a form post has no page). */
export function returnTo(request: FastifyRequest): string {
  return request.method === 'GET' ? localPath(request.url) : '/';
}

export function signInHref(target: string): string {
  return `/login?return_to=${encodeURIComponent(target)}`;
}

/** The header's user menu: who is signed in, their tokens and Sign out, or a Sign in link. */
export function accountMenu(request: FastifyRequest, ctx: Context): string {
  const user = sessionUser(request, ctx);
  if (!user)
    return `<nav class="account" aria-label="Account"><a href="${esc(signInHref(returnTo(request)))}">Sign in</a></nav>`;
  return `<nav class="account" aria-label="Account"><span>Signed in as <strong>${esc(user.login)}</strong></span>
<a href="/settings/tokens">Tokens</a>
<form method="post" action="/logout" class="inline">${hidden({ return_to: returnTo(request) })}<button type="submit" class="secondary">Sign out</button></form></nav>`;
}

/** Sends a whole HTML page with the header's user menu. */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Context,
  title: string,
  body: string,
  status = 200,
): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(page(title, body, accountMenu(request, ctx)));
}

/**
 * GitHub's 404: the same page whether the thing is missing or private, and to a visitor who is
 * signed out, an offer to sign in (which is all a private repository's 404 may reveal).
 */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply, ctx: Context): FastifyReply {
  const signedIn = sessionUser(request, ctx) !== undefined;
  const body = signedIn
    ? '<p>There is nothing here, or you do not have access to it.</p>'
    : `<p>There is nothing here, or it is private. <a href="${esc(signInHref(returnTo(request)))}">Sign in</a> to see the repositories you have access to.</p>`;
  return sendPage(request, reply, ctx, 'Not found', body, 404);
}

/** A refused action, said plainly, with the way back. */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Context,
  status: number,
  title: string,
  message: string,
  back?: { href: string; label: string },
): FastifyReply {
  const link = back ? `<p><a href="${esc(back.href)}">${esc(back.label)}</a></p>` : '';
  return sendPage(
    request,
    reply,
    ctx,
    title,
    `<p class="notice" role="alert">${esc(message)}</p>${link}`,
    status,
  );
}

/** A form post whose Origin is not this host: possibly another site's forged form. */
export function refuseCrossSite(request: FastifyRequest, reply: FastifyReply, ctx: Context): FastifyReply {
  return sendProblem(
    request,
    reply,
    ctx,
    403,
    'Request refused',
    'This form was not sent from a code host page.',
  );
}
