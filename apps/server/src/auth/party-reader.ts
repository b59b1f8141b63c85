import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../errors/app-error.js';
import type { AuthenticatedUser } from '../services/sessions.js';
import { SessionTokens } from './session-tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The agent a valid party token (GET /api/temp-auth-token?party=true) names, when the request
     * came with one instead of a session. It opens the agent reads that call `requireReader`, for
     * that agent only; `request.user` stays unset, so every other route answers 401.
     */
    partyAgentId: string | undefined;
  }
}

/** How long a party token lives; the page fetches a new one well before (workspace §7: hourly). */
export const PARTY_TOKEN_TTL_MS = 60 * 60 * 1000;
const PARTY_SUBJECT_SESSION = 'party';

/**
 * The party page's read-only credential: an HS256 token with its own derived key and audience
 * (`tandem-party`), whose subject is the party agent's id. It never passes as a session or
 * preview token, nor the reverse, and carries no user.
 */
export class PartyTokens {
  private readonly tokens: SessionTokens;

  constructor(secret: string) {
    this.tokens = new SessionTokens(secret, 'party');
  }

  sign(agentId: string, now = Date.now()): Promise<string> {
    return this.tokens.sign(
      { userId: agentId, sessionId: PARTY_SUBJECT_SESSION },
      new Date(now + PARTY_TOKEN_TTL_MS),
    );
  }

  /** The agent a valid, unexpired party token names; undefined for anything else. */
  agentOf(token: string): string | undefined {
    const claims = this.tokens.verify(token);
    return claims && claims.sessionId === PARTY_SUBJECT_SESSION ? claims.userId : undefined;
  }
}

/**
 * Who reads a party agent without signing in. Not a user row: no id any user has (so nothing is
 * "own" and no read marker is written), never an admin.
 */
export const PARTY_VISITOR: AuthenticatedUser = Object.freeze({
  id: '00000000-0000-0000-0000-000000000000',
  username: 'anon',
  admin: false,
  sessionId: '',
});

/**
 * The viewer of an agent read (metadata, conversation, latest timestamp, diff…): the signed-in
 * user, or the party visitor when a party token names exactly this agent. 401 otherwise.
 */
export function requireReader(request: FastifyRequest, agentId: string): AuthenticatedUser {
  if (request.user) return request.user;
  if (request.partyAgentId !== undefined && request.partyAgentId === agentId) return PARTY_VISITOR;
  throw unauthorized();
}

/** 401 before anything is parsed when the request has neither a session nor a party token. */
export function requireAnyReader(request: FastifyRequest): void {
  if (!request.user && request.partyAgentId === undefined) throw unauthorized();
}
