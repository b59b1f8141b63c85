import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const ISSUER = 'tandem';
const AUDIENCE = 'tandem-api';

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/** Signs and verifies the session token carried by the access_token cookie or a Bearer header. */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    // Derive a dedicated signing key so the same secret can safely serve other purposes.
    this.key = createHash('sha256').update(`tandem-session:${secret}`).digest();
  }

  async sign(claims: SessionClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** The claims of a valid token, or undefined for anything forged, expired or malformed. */
  async verify(token: string): Promise<SessionClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { issuer: ISSUER, audience: AUDIENCE });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
      return { userId: payload.sub, sessionId: payload.sid };
    } catch {
      return undefined;
    }
  }
}
