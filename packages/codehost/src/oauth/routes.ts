import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { userPicker } from '../pages/html.js';
import { refuseCrossSite, sendPage } from '../pages/layout.js';
import type { Context } from '../rest/context.js';
import { localPath, sameOrigin, signInAs } from './session.js';

const CODE_TTL_MS = 10 * 60 * 1000;

export function oauthRoutes(app: FastifyInstance, ctx: Context): void {
  const { host } = ctx;

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/login/oauth/authorize',
    async (request, reply) => {
      const { client_id, redirect_uri, state } = request.query;
      if (client_id !== host.credentials.clientId) {
        return sendPage(
          request,
          reply,
          ctx,
          'Unknown application',
          '<p>The client_id is not registered here.</p>',
          400,
        );
      }
      if (!redirect_uri || !/^https?:\/\//.test(redirect_uri)) {
        return sendPage(
          request,
          reply,
          ctx,
          'Bad redirect',
          '<p>redirect_uri must be an http(s) URL.</p>',
          400,
        );
      }
      const body =
        `<p>Choose who you are. <strong>Tandem</strong> will be able to read your profile and the installations you can reach.</p>` +
        userPicker(host.state.users, '/login/oauth/authorize', { client_id, redirect_uri, state });
      return sendPage(request, reply, ctx, 'Sign in to continue to Tandem', body);
    },
  );

  app.post<{ Body: Record<string, string | undefined> }>('/login/oauth/authorize', async (request, reply) => {
    const { client_id, redirect_uri, state, login } = request.body ?? {};
    const user = login ? host.user(login) : undefined;
    if (
      client_id !== host.credentials.clientId ||
      !redirect_uri ||
      !/^https?:\/\//.test(redirect_uri) ||
      !user
    ) {
      return sendPage(request, reply, ctx, 'Sign-in failed', '<p>Unknown application or user.</p>', 400);
    }
    const code = randomBytes(16).toString('hex');
    host.store.update((s) => {
      const now = Date.now();
      s.oauthCodes = s.oauthCodes.filter((c) => Date.parse(c.expiresAt) > now);
      s.oauthCodes.push({
        code,
        login: user.login,
        clientId: client_id,
        redirectUri: redirect_uri,
        expiresAt: new Date(now + CODE_TTL_MS).toISOString(),
      });
    });
    signInAs(reply, ctx, user.login);
    const target = new URL(redirect_uri);
    target.searchParams.set('code', code);
    if (state) target.searchParams.set('state', state);
    return reply.redirect(target.toString());
  });

  app.post<{ Body: Record<string, unknown> }>('/login/oauth/access_token', async (request, reply) => {
    const body = request.body ?? {};
    const wantsJson = (request.headers.accept ?? '').includes('json');
    const answer = (fields: Record<string, string>) =>
      wantsJson
        ? reply.send(fields)
        : reply.type('application/x-www-form-urlencoded').send(new URLSearchParams(fields).toString());
    if (
      body.client_id !== host.credentials.clientId ||
      body.client_secret !== host.credentials.clientSecret
    ) {
      return answer({
        error: 'incorrect_client_credentials',
        error_description: 'The client_id and/or client_secret passed are incorrect.',
      });
    }
    const record = host.state.oauthCodes.find((c) => c.code === body.code);
    const valid =
      record &&
      Date.parse(record.expiresAt) > Date.now() &&
      record.clientId === body.client_id &&
      (typeof body.redirect_uri !== 'string' || body.redirect_uri === record.redirectUri);
    if (!record || !valid) {
      return answer({
        error: 'bad_verification_code',
        error_description: 'The code passed is incorrect or expired.',
      });
    }
    // Codes are single-use.
    host.store.update((s) => (s.oauthCodes = s.oauthCodes.filter((c) => c.code !== record.code)));
    const { token } = host.issueUserToken(record.login);
    return answer({ access_token: token, token_type: 'bearer', scope: '' });
  });

  /** Signs a browser in as a seeded user for the HTML pages (install, compare). */
  app.post<{ Body: Record<string, string | undefined> }>('/session', async (request, reply) => {
    // Login CSRF: another site must not sign this browser in as someone of its choosing.
    if (!sameOrigin(request, ctx)) return refuseCrossSite(request, reply, ctx);
    const login = request.body?.login;
    if (!login || !host.user(login))
      return sendPage(request, reply, ctx, 'Sign-in failed', '<p>Unknown user.</p>', 400);
    signInAs(reply, ctx, login);
    return reply.redirect(localPath(request.body?.return_to));
  });
}
