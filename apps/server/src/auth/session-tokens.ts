import { createHash, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'tandem';
/**
 * What a token opens. A preview token (the temporary credential a preview frame trades for its own
 * cookie) can be asked for by code the agent wrote, so it has its own key and audience and never
 * passes as a session token, nor the reverse.
 */
export type TokenPurpose = 'session' | 'preview';
const AUDIENCES: Record<TokenPurpose, string> = { session: 'tandem-api', preview: 'tandem-preview' };

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/**
 * Signs and verifies the session token carried by the access_token cookie or a Bearer header, and
 * (purpose 'preview') the preview token of GET /api/temp-auth-token.
 */
export class SessionTokens {
  private readonly key: Uint8Array;
  private readonly audience: string;

  constructor(secret: string, purpose: TokenPurpose = 'session') {
    // Derive a dedicated signing key so the same secret can safely serve other purposes.
    this.key = createHash('sha256').update(`tandem-${purpose}:${secret}`).digest();
    this.audience = AUDIENCES[purpose];
  }

  async sign(claims: SessionClaims, expiresAt: Date): Promise<string> {
    return (
      new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(this.audience)
        .setIssuedAt()
        // Every token differs, so caches keyed by token never mix two sign-ins.
        .setJti(randomUUID())
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(this.key)
    );
  }

  /** The claims of a valid token, or undefined for anything forged, expired or malformed. */
  async verify(token: string): Promise<SessionClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: this.audience });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return undefined;
    }
  }
}
