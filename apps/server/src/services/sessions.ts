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
/**
 * How long a resolved session is trusted without reading its row again. Every open tab polls two or
 * three endpoints every 2.5 s with the same token, so most requests skip the sessions query. A
 * sign-out in this process takes effect at once; one made through another server (Postgres with
 * several servers) within this time.
 */
export const SESSION_CACHE_MS = 5_000;
/** Tokens remembered at most; the oldest are forgotten first. */
const SESSION_CACHE_MAX = 10_000;

interface CachedSession {
  user: AuthenticatedUser;
  until: number;
}

/** Creates, resolves and revokes sessions; the token is only a signed pointer to a live row. */
export class SessionService {
  private readonly cache = new Map<string, CachedSession>();
  /**
   * Reads on their way, by token: requests that arrive together with a token not yet cached (a
   * hundred agents created at once from one CLI session, every tab's first poll after the cache
   * time) share one read instead of each sending its own to the database.
   */
  private readonly reading = new Map<string, Promise<AuthenticatedUser | undefined>>();
  /** Sessions revoked here lately (id → when), so a read racing the revocation is never cached. */
  private readonly revoked = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly tokens: SessionTokens,
    private readonly sessionDays: number,
    private readonly cacheMs: number = SESSION_CACHE_MS,
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

  /**
   * The user of a token resolved within the cache time, without a promise (the polls' path);
   * undefined when it must be read (resolve). The very token string verified before: its
   * signature holds, only the row may have changed.
   */
  cachedUser(token: string): AuthenticatedUser | undefined {
    const cached = this.cache.get(token);
    return cached && cached.until > Date.now() ? cached.user : undefined;
  }

  resolve(token: string): Promise<AuthenticatedUser | undefined> {
    const cached = this.cachedUser(token);
    if (cached) return Promise.resolve(cached);
    const reading = this.reading.get(token);
    if (reading) return reading;
    // Past its time (or never kept): read again.
    this.cache.delete(token);
    const read = this.read(token).finally(() => this.reading.delete(token));
    this.reading.set(token, read);
    return read;
  }

  private async read(token: string): Promise<AuthenticatedUser | undefined> {
    const now = Date.now();
    const claims = this.tokens.verify(token);
    if (!claims) return undefined;
    const found = await this.findSession(claims);
    // Checked after the read, so a revocation made while it was on its way holds for every
    // request that shared it.
    if (!found || this.revoked.has(claims.sessionId)) return undefined;
    if (this.cacheMs > 0) {
      if (this.cache.size >= SESSION_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      const until = Math.min(now + this.cacheMs, found.expiresAt.getTime(), claims.expiresAt ?? Infinity);
      this.cache.set(token, { user: found.user, until });
    }
    return found.user;
  }

  /** The user of a live session; a credential derived from a revoked session dies with it. */
  async resolveClaims(claims: SessionClaims): Promise<AuthenticatedUser | undefined> {
    return (await this.findSession(claims))?.user;
  }

  private async findSession(
    claims: SessionClaims,
  ): Promise<{ user: AuthenticatedUser; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .select({
        id: users.id,
        username: users.username,
        admin: users.admin,
        expiresAt: sessions.expiresAt,
      })
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
    if (!row) return undefined;
    const { expiresAt, ...user } = row;
    return { user: { ...user, sessionId: claims.sessionId }, expiresAt };
  }

  async revoke(sessionId: string): Promise<void> {
    const now = Date.now();
    for (const [id, at] of this.revoked) if (at < now - 60_000) this.revoked.delete(id);
    this.revoked.set(sessionId, now);
    for (const [token, entry] of this.cache) {
      if (entry.user.sessionId === sessionId) this.cache.delete(token);
    }
    await this.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
  }
}
