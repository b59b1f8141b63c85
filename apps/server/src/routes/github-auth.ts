import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '@tandem/db';
import { safeReturnPath } from '@tandem/shared';
import { publicWrite } from '../auth/client-limits.js';
import { ownLeadId } from '../auth/lead-cookie.js';
import { clearSessionCookie, setSessionCookie } from '../auth/session-cookie.js';
import type { RateLimits } from '../config/rate-limits.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { CodeHostAuthError, type CodeHostGateway } from '../github/gateway.js';
import { parseRequest } from '../http/validation.js';
import { syncUserFromCodeHost } from '../services/code-host-sync.js';
import { linkLeadToUser } from '../services/tracking/leads.js';
import type { SessionService } from '../services/sessions.js';

const OAUTH_COOKIE = 'tandem_oauth';
const OAUTH_COOKIE_SECONDS = 600;

const startQuery = z.object({
  return_uri: z.string().max(2000).optional(),
  revoked: z.string().optional(),
  lead_id: z.string().max(200).optional(),
  popup: z.string().optional(),
});

const callbackQuery = z.object({
  code: z.string().min(1).max(500).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

const pendingLogin = z.object({
  state: z.string(),
  returnUri: z.string(),
  popup: z.boolean(),
  leadId: z.string().optional(),
});

export interface GitHubAuthDeps {
  db: Db;
  gateway: CodeHostGateway;
  sessions: SessionService;
  secretBox: SecretBox;
  admins: ReadonlySet<string>;
  publicUrl: string | undefined;
  secureCookies: boolean;
  rateLimits: RateLimits | false;
}

/** Sign in with the code host: GET /auth/github → code host → GET /auth/github/callback. */
export function githubAuthRoutes(app: FastifyInstance, deps: GitHubAuthDeps): void {
  const origin = (request: FastifyRequest) => deps.publicUrl ?? `${request.protocol}://${request.host}`;
  const callbackUrl = (request: FastifyRequest) => `${origin(request)}/auth/github/callback`;

  const limited = publicWrite(deps.rateLimits, 'signIn');

  app.get('/auth/github', limited, async (request, reply) => {
    const query = parseRequest(startQuery, request.query, 'query');
    // `revoked`: the client saw its code-host access revoked; start over from a clean session.
    // A GET can be triggered by any site (a link, a redirect, an <img> on a same-site preview),
    // so it signs out only when the browser says our own page asked; otherwise the flag is
    // ignored and sign-in simply proceeds (the callback replaces the session anyway). Signing
    // out on its own is POST /api/auth/logout, CSRF-checked like every cookie write.
    const revoke = query.revoked === 'true' || query.revoked === '1';
    if (revoke && request.user && fromOwnPage(request, origin(request))) {
      await deps.sessions.revoke(request.user.sessionId);
      clearSessionCookie(reply, deps.secureCookies);
    }
    // Only a lead this browser created may be linked to the user who signs in.
    const leadId = ownLeadId(request, query.lead_id);
    const state = randomBytes(24).toString('hex');
    const pending: z.infer<typeof pendingLogin> = {
      state,
      returnUri: safeReturnPath(query.return_uri),
      popup: query.popup === 'true' || query.popup === '1',
      ...(leadId ? { leadId } : {}),
    };
    reply.setCookie(OAUTH_COOKIE, JSON.stringify(pending), {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.secureCookies,
      path: '/auth',
      maxAge: OAUTH_COOKIE_SECONDS,
    });
    return reply.redirect(deps.gateway.authorizeUrl({ redirectUri: callbackUrl(request), state }));
  });

  app.get('/auth/github/callback', limited, async (request, reply) => {
    const query = parseRequest(callbackQuery, request.query, 'query');
    const pending = readPendingLogin(request);
    reply.clearCookie(OAUTH_COOKIE, { path: '/auth' });
    const fail = (reason: string) => reply.redirect(`/login?error=${encodeURIComponent(reason)}`);

    if (query.error) return fail('denied');
    if (!pending || !query.state || !query.code || !sameState(pending.state, query.state))
      return fail('state');

    let userToken: string;
    try {
      userToken = await deps.gateway.exchangeCode({ code: query.code, redirectUri: callbackUrl(request) });
    } catch (error) {
      if (error instanceof CodeHostAuthError) return fail('code');
      request.log.error({ err: error }, 'OAuth code exchange failed');
      return fail('codehost');
    }
    try {
      const view = await deps.gateway.loadUserView(userToken);
      const userId = await syncUserFromCodeHost(deps.db, {
        ...view,
        sealedToken: deps.secretBox.seal(userToken),
        admin: deps.admins.has(view.user.login.toLowerCase()),
      });
      // The anonymous visitor we tracked (lead) is this user from now on.
      if (pending.leadId) {
        await linkLeadToUser(deps.db, pending.leadId, userId);
      }
      const userAgent = request.headers['user-agent'];
      const session = await deps.sessions.create(userId, userAgent ? { userAgent } : {});
      setSessionCookie(reply, session.token, session.expiresAt, deps.secureCookies);
      request.log.info({ userId, login: view.user.login }, 'signed in');
    } catch (error) {
      request.log.error({ err: error }, 'loading the signed-in user from the code host failed');
      return fail('codehost');
    }
    return reply.redirect(pending.popup ? '/login/popup-complete' : pending.returnUri);
  });
}

/**
 * Whether this navigation came from one of our own pages (or the user typing the address):
 * Sec-Fetch-Site where the browser sends it, else a Referer on our origin. Without either, no.
 */
function fromOwnPage(request: FastifyRequest, ownOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const referer = request.headers.referer;
  if (!referer) return false;
  try {
    const from = new URL(referer).origin;
    return from === ownOrigin || from === `${request.protocol}://${request.host}`;
  } catch {
    return false;
  }
}

function readPendingLogin(request: FastifyRequest): z.infer<typeof pendingLogin> | undefined {
  const raw = request.cookies[OAUTH_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  try {
    const parsed = pendingLogin.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function sameState(expected: string, actual: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}
