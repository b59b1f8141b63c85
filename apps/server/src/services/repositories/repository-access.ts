import { eq, sql } from 'drizzle-orm';
import { prepared, repositories, type Db } from '@tandem/db';
import { hasAccess, type AccessLevel } from '@tandem/shared';
import { AppError, notFound } from '../../errors/app-error.js';
import type { CodeHostGateway, RepositoryPermission } from '../../github/gateway.js';
import type { AuthenticatedUser } from '../sessions.js';

/** Where access levels come from: the code host in the product (tests may stand in for it). */
export type PermissionSource = Pick<CodeHostGateway, 'repositoryPermission'>;

/** An installed repository together with the viewer's access level on it. */
export interface AccessibleRepository {
  id: string;
  fullName: string;
  installationId: number;
  private: boolean;
  defaultBranch: string;
  level: AccessLevel;
}

type RepositoryRow = Omit<AccessibleRepository, 'level'>;

export const REPOSITORY_NOT_FOUND = 'Repository not found';
const CODE_HOST_UNREACHABLE = 'Could not check your access to this repository on the code host';

/**
 * Access levels per user and repository, asked of the code host and cached briefly: a page load
 * makes several repository-scoped calls, and a permission change on the code host shows within a
 * minute. Each server process keeps its own cache (servers share nothing else either).
 */
export class RepositoryAccess {
  private readonly cache = new Map<string, { expires: number; level: Promise<RepositoryPermission> }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly source: PermissionSource,
    options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The repository `owner/name` with the viewer's level; 404 when it is not installed or the viewer
   * has no access (the same answer, so private names do not leak), 403 `refusal` when the level is
   * below `needed`.
   */
  async require(
    viewer: AuthenticatedUser,
    fullName: string,
    needed: AccessLevel = 'read',
    refusal = 'Forbidden',
  ): Promise<AccessibleRepository> {
    const [row] = await prepared(this.db, 'repository_by_name', (db, name) =>
      db
        .select(REPOSITORY_COLUMNS)
        .from(repositories)
        .where(
          sql`lower(${repositories.fullName}) = ${sql.placeholder('name')} and ${repositories.removedAt} is null`,
        )
        .limit(1)
        .prepare(name),
    ).execute({ name: fullName.toLowerCase() });
    return this.requireRow(viewer, row, needed, refusal);
  }

  /** As `require`, for a repository known by id (a log's); `missing` is the 404's text. */
  async requireById(
    viewer: AuthenticatedUser,
    repositoryId: string,
    needed: AccessLevel,
    missing: string,
  ): Promise<AccessibleRepository> {
    const [row] = await this.db
      .select(REPOSITORY_COLUMNS)
      .from(repositories)
      .where(eq(repositories.id, repositoryId))
      .limit(1);
    return this.requireRow(viewer, row, needed, 'Forbidden', missing);
  }

  /**
   * As `require`, for a repository row the caller read itself with more it needs (creating an
   * agent reads the viewer's membership and the installation's standing in the same statement).
   */
  async requireRow<R extends RepositoryRow>(
    viewer: AuthenticatedUser,
    row: R | undefined,
    needed: AccessLevel,
    refusal = 'Forbidden',
    missing = REPOSITORY_NOT_FOUND,
  ): Promise<R & { level: AccessLevel }> {
    if (!row) throw notFound(missing);
    const permission = await this.permission(viewer, row);
    if (permission === 'none') throw notFound(missing);
    if (!hasAccess(permission, needed)) throw new AppError('forbidden', refusal);
    return { ...row, level: permission };
  }

  private permission(viewer: AuthenticatedUser, repo: RepositoryRow): Promise<RepositoryPermission> {
    const key = `${viewer.id}\n${repo.id}`;
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.level;
    const [owner = '', name = ''] = repo.fullName.split('/');
    const level = this.source
      .repositoryPermission(repo.installationId, { owner, name }, viewer.username)
      .catch(() => {
        // A failed look-up is not remembered: the next call asks again.
        if (this.cache.get(key)?.level === level) this.cache.delete(key);
        throw new AppError('bad_gateway', CODE_HOST_UNREACHABLE);
      });
    this.cache.delete(key);
    if (this.cache.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, { expires: now + this.ttlMs, level });
    return level;
  }
}

const REPOSITORY_COLUMNS = {
  id: repositories.id,
  fullName: repositories.fullName,
  installationId: repositories.installationId,
  private: repositories.private,
  defaultBranch: repositories.defaultBranch,
};
