import { and, eq, gt, isNull } from 'drizzle-orm';
import { sessions, users, type Db } from '@tandem/db';
import type { SessionClaims, SessionTokens } from '../auth/session-tokens.js';

export interface AuthenticatedUser {
  id: string;
  username: string;
  admin: boolean;
  sessionId: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Creates, resolves and revokes sessions; the token is only a signed pointer to a live row. */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly tokens: SessionTokens,
    private readonly sessionDays: number,
  ) {}

  async create(
    userId: string,
    options: { kind?: 'web' | 'cli'; userAgent?: string } = {},
  ): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(Date.now() + this.sessionDays * DAY_MS);
    const [row] = await this.db
      .insert(sessions)
      .values({ userId, kind: options.kind ?? 'web', userAgent: options.userAgent ?? null, expiresAt })
      .returning({ id: sessions.id });
    const token = await this.tokens.sign({ userId, sessionId: row!.id }, expiresAt);
    return { token, expiresAt };
  }

  async resolve(token: string): Promise<AuthenticatedUser | undefined> {
    const claims = await this.tokens.verify(token);
    return claims ? this.resolveClaims(claims) : undefined;
  }

  /** The user of a live session; a credential derived from a revoked session dies with it. */
  async resolveClaims(claims: SessionClaims): Promise<AuthenticatedUser | undefined> {
    const [row] = await this.db
      .select({ id: users.id, username: users.username, admin: users.admin })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.id, claims.sessionId),
          eq(sessions.userId, claims.userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
        ),
      )
      .limit(1);
    return row ? { ...row, sessionId: claims.sessionId } : undefined;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
  }
}
