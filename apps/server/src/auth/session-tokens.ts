import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

const ISSUER = 'tandem';
/**
 * What a token opens. A preview token (the temporary credential a preview frame trades for its own
 * cookie) can be asked for by code the agent wrote, so it has its own key and audience and never
 * passes as a session token, nor the reverse.
 */
export type TokenPurpose = 'session' | 'preview' | 'party';
const AUDIENCES: Record<TokenPurpose, string> = {
  session: 'tandem-api',
  preview: 'tandem-preview',
  // The party page's read-only token (auth/party-reader.ts): names one agent, never a user.
  party: 'tandem-party',
};

export interface SessionClaims {
  userId: string;
  sessionId: string;
  /** When the token itself expires (ms since the epoch); set on verified tokens. */
  expiresAt?: number;
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

  /**
   * The claims of a valid token, or undefined for anything forged, expired or malformed.
   *
   * Checked here with node:crypto rather than jose's jwtVerify, which imports the key into WebCrypto
   * on every call (~0.4 ms, on every polled request). The rules are jose's for our tokens: exactly
   * HS256 (no `none`, no other algorithm, no `crit`), our issuer and audience, `exp` in the future,
   * `nbf` (if any) not in the future.
   */
  verify(token: string): SessionClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    const expected = createHmac('sha256', this.key).update(`${header}.${payload}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const head = parseJson(header);
    if (!head || head.alg !== 'HS256' || head.crit !== undefined || head.b64 !== undefined) return undefined;
    const claims = parseJson(payload);
    if (!claims) return undefined;
    const now = Math.floor(Date.now() / 1000);
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.iss !== ISSUER || !audiences.includes(this.audience)) return undefined;
    if (typeof claims.exp !== 'number' || claims.exp <= now) return undefined;
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now)) return undefined;
    if (claims.iat !== undefined && typeof claims.iat !== 'number') return undefined;
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') return undefined;
    return { userId: claims.sub, sessionId: claims.sid, expiresAt: claims.exp * 1000 };
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parseJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
