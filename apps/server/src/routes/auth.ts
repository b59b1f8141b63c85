import type { FastifyInstance } from 'fastify';
import type { LogoutResponse } from '@tandem/shared';
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
}
