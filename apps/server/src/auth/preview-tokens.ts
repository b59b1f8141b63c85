import { createHash, randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { PREVIEW_TOKEN_TTL_MS } from '@tandem/shared';
import type { SessionClaims } from './session-tokens.js';

const ISSUER = 'tandem';
/** Not 'tandem-api': a preview token must never pass as a session token, and the reverse. */
const AUDIENCE = 'tandem-preview';

/**
 * The temporary credential a preview frame trades for its own cookie. Code the agent wrote runs on
 * the preview's origin and can ask the workspace for this token, so it only opens previews: its
 * own signing key and audience keep it out of every API route.
 */
export class PreviewTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = createHash('sha256').update(`tandem-preview:${secret}`).digest();
  }

  async sign(claims: SessionClaims, now = Date.now()): Promise<string> {
    return (
      new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(now / 1000))
        // Every token differs, so caches keyed by token never mix two sign-ins.
        .setJti(randomUUID())
        .setExpirationTime(Math.floor((now + PREVIEW_TOKEN_TTL_MS) / 1000))
        .sign(this.key)
    );
  }

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
