import type { FastifyInstance } from 'fastify';
import { localPath, sameOrigin, sessionUser, signOut } from '../oauth/session.js';
import type { Context } from '../rest/context.js';
import { esc, userPicker } from './html.js';
import { refuseCrossSite, sendPage, sendProblem, signInHref } from './layout.js';

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f2328"/><path d="M9 11h14M16 11v12" stroke="#fff" stroke-width="3.5" stroke-linecap="round"/></svg>`;
const MAX_TOKEN_NAME = 100;

/** Signing in and out of the pages, personal access tokens, and the favicon. */
export function sessionPageRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  for (const path of ['/favicon.svg', '/favicon.ico']) {
    app.get(path, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
    );
  }

  app.get<{ Querystring: { return_to?: string } }>('/login', async (request, reply) => {
    const target = localPath(request.query.return_to);
    const body =
      '<p>Choose who you are. These are the code host’s seeded users; there are no passwords.</p>' +
      userPicker(host.state.users, '/session', { return_to: target });
    return sendPage(request, reply, ctx, 'Sign in to the code host', body);
  });

  app.post<{ Body: { return_to?: string } }>('/logout', async (request, reply) => {
    if (!sameOrigin(request, ctx)) return refuseCrossSite(request, reply, ctx);
    signOut(request, reply, ctx);
    return reply.redirect(localPath(request.body?.return_to), 303);
  });

  app.get('/settings/tokens', async (request, reply) => {
    const user = sessionUser(request, ctx);
    if (!user) return reply.redirect(signInHref('/settings/tokens'));
    return sendPage(request, reply, ctx, 'Personal access tokens', tokensBody(user.login));
  });

  app.post<{ Body: { name?: string } }>('/settings/tokens', async (request, reply) => {
    if (!sameOrigin(request, ctx)) return refuseCrossSite(request, reply, ctx);
    const user = sessionUser(request, ctx);
    if (!user)
      return sendProblem(request, reply, ctx, 401, 'Sign in first', 'Sign in to create a token.', {
        href: signInHref('/settings/tokens'),
        label: 'Sign in',
      });
    const name = typeof request.body?.name === 'string' ? request.body.name.trim() : '';
    if (!name || name.length > MAX_TOKEN_NAME)
      return sendProblem(
        request,
        reply,
        ctx,
        422,
        'Token not created',
        `Give the token a name of 1 to ${MAX_TOKEN_NAME} characters.`,
        { href: '/settings/tokens', label: 'Back to tokens' },
      );
    const { token } = host.issuePersonalToken(user.login, name);
    // Shown once, in this answer only: the store keeps only its hash, and no cache may keep it.
    reply.header('cache-control', 'no-store');
    const created = `<div class="box" role="status"><p>Your new token <strong>${esc(name)}</strong>. Copy it now: it will not be shown again.</p>
<p><label for="new-token">Token</label><input id="new-token" readonly value="${esc(token)}"></p></div>`;
    return sendPage(request, reply, ctx, 'Personal access tokens', created + tokensBody(user.login));
  });

  app.post<{ Params: { id: string } }>('/settings/tokens/:id/delete', async (request, reply) => {
    if (!sameOrigin(request, ctx)) return refuseCrossSite(request, reply, ctx);
    const user = sessionUser(request, ctx);
    if (!user) return sendProblem(request, reply, ctx, 401, 'Sign in first', 'Sign in to manage tokens.');
    if (!host.revokePersonalToken(user.login, Number(request.params.id)))
      return sendProblem(request, reply, ctx, 404, 'Not found', 'There is no such token.', {
        href: '/settings/tokens',
        label: 'Back to tokens',
      });
    return reply.redirect('/settings/tokens', 303);
  });

  function tokensBody(login: string): string {
    const tokens = host.personalTokens(login);
    const list = tokens.length
      ? `<ul>${tokens
          .map(
            (t) =>
              `<li><strong>${esc(t.name)}</strong> <span class="muted">created ${esc(t.createdAt.slice(0, 10))}, expires ${esc(t.expiresAt.slice(0, 10))}</span>
<form method="post" action="/settings/tokens/${t.id}/delete" class="inline"><button type="submit" class="danger" aria-label="Delete token ${esc(t.name)}">Delete</button></form></li>`,
          )
          .join('')}</ul>`
      : '<p class="muted">You have no personal access tokens.</p>';
    const example = `${ctx.shapes.webUrl.replace('://', `://${login}:TOKEN@`)}/OWNER/REPO.git`;
    return `<p>Tokens work as passwords for git over HTTP and as <code>Authorization: Bearer</code> credentials for the REST API, with your access. They expire after 90 days.</p>
<p>Clone a private repository with <code>git clone ${esc(example)}</code>.</p>
<h2>Your tokens</h2>${list}
<h2>New token</h2>
<form method="post" action="/settings/tokens">
<label for="token-name">Token name</label><input id="token-name" name="name" required maxlength="${MAX_TOKEN_NAME}">
<button type="submit">Generate token</button></form>`;
  }
}
