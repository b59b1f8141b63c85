import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CSRF_HEADER, SESSION_COOKIE } from '@tandem/shared';
import { AppError, unauthorized } from '../errors/app-error.js';
import type { AuthenticatedUser, SessionService } from '../services/sessions.js';
import type { PartyTokens } from './party-reader.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when a valid session token came with the request (cookie or Bearer). */
    user: AuthenticatedUser | undefined;
    /** How the caller authenticated: only cookie-borne credentials need CSRF protection. */
    authSource: 'cookie' | 'bearer' | undefined;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Resolves the session on every request. A Bearer header wins over the cookie, so a CLI or script
 * is never subject to CSRF rules meant for browsers.
 */
export function registerAuthentication(
  app: FastifyInstance,
  sessions: SessionService,
  options: { publicUrl?: string | undefined; partyTokens?: PartyTokens | undefined } = {},
): void {
  app.decorateRequest('user', undefined);
  app.decorateRequest('authSource', undefined);
  app.decorateRequest('partyAgentId', undefined);

  // Callback-style, and without a promise when the session is cached: every poll passes here,
  // and an async hook costs a promise and a microtask turn per request.
  app.addHook('preHandler', (request, _reply, done) => {
    const bearer = bearerToken(request);
    const token = bearer ?? request.cookies[SESSION_COOKIE];
    if (!token) return done();
    if (!bearer && UNSAFE_METHODS.has(request.method)) assertSameOrigin(request, options.publicUrl);
    const cached = sessions.cachedUser(token);
    if (cached) {
      request.user = cached;
      request.authSource = bearer ? 'bearer' : 'cookie';
      return done();
    }
    sessions
      .resolve(token)
      .then((user) => {
        request.user = user;
        request.authSource = user ? (bearer ? 'bearer' : 'cookie') : undefined;
        // Not a session: maybe the party page's read-only token (auth/party-reader.ts).
        if (!user && bearer && options.partyTokens)
          request.partyAgentId = options.partyTokens.agentOf(bearer);
      })
      // A failure anywhere above reaches the error handler, as a throw in an async hook did.
      .then(() => done(), done);
  });
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * CSRF defence for cookie-authenticated writes: browsers send Origin on cross-site writes, and
 * cannot add our custom header cross-site without a CORS preflight we never grant. So a write is
 * accepted when its Origin is ours, or when there is no Origin but our header is present.
 */
function assertSameOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  const origin = request.headers.origin;
  if (origin) {
    // Behind a TLS-terminating proxy the request looks like http: the configured public URL counts too.
    if (origin === requestOrigin(request) || origin === publicUrl) return;
    throw new AppError('forbidden', 'Cross-site request refused');
  }
  if (request.headers[CSRF_HEADER] !== undefined) return;
  throw new AppError('forbidden', `Missing ${CSRF_HEADER} header on a cookie-authenticated request`);
}

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export function requireUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
