import type { FastifyInstance } from 'fastify';
import type { CliTokenResponse, LogoutResponse } from '@tandem/shared';
import { requireUser } from '../auth/authenticate.js';
import { clearSessionCookie } from '../auth/session-cookie.js';
import type { SessionService } from '../services/sessions.js';

export function authRoutes(
  app: FastifyInstance,
  deps: { sessions: SessionService; secureCookies: boolean },
): void {
  /** Revokes the session server-side (so a copied token dies too) and clears the cookie. */
  app.post('/api/auth/logout', async (request, reply) => {
    if (request.user) await deps.sessions.revoke(request.user.sessionId);
    clearSessionCookie(reply, deps.secureCookies);
    const body: LogoutResponse = { success: true };
    return reply.send(body);
  });

  /**
   * A separate session for the CLI, so the browser's HttpOnly cookie is never exposed to page
   * scripts (DESIGN §9) and the CLI's access can be revoked on its own.
   */
  app.post('/api/auth/cli-token', async (request) => {
    const user = requireUser(request);
    const userAgent = request.headers['user-agent'];
    const { token, expiresAt } = await deps.sessions.create(user.id, {
      kind: 'cli',
      ...(userAgent ? { userAgent } : {}),
    });
    const body: CliTokenResponse = { token, expires_at: expiresAt.toISOString() };
    return body;
  });
}
