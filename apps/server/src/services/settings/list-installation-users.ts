import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { memberships, repositories, users, type Db } from '@tandem/db';
import type { UsersTable } from '@tandem/shared';
import type { InstallationAccess } from './installation-access.js';

/**
 * The code host's page for choosing an installation's repositories: GitHub puts organisations'
 * under /organizations/{org}/ (the local code host answers both).
 */
export function manageRepositoriesUrl(webUrl: string, access: InstallationAccess): string {
  const base = webUrl.replace(/\/+$/, '');
  const id = encodeURIComponent(String(access.installationId));
  return access.accountType === 'Organization'
    ? `${base}/organizations/${encodeURIComponent(access.name)}/settings/installations/${id}`
    : `${base}/settings/installations/${id}`;
}

/**
 * The users table of one installation, with its repositories. `utm_source` (where the user first
 * came from) is for product admins only (platform §6).
 */
export async function listInstallationUsers(
  db: Db,
  access: InstallationAccess,
  options: { webUrl: string; productAdmin: boolean },
): Promise<UsersTable> {
  const rows = await db
    .select({
      user_id: users.id,
      username: users.username,
      avatar_url: users.avatarUrl,
      role: memberships.role,
      // The first lead recorded for the user: how they first arrived.
      utm_source: sql<string | null>`(
        select l.data->>'utm_source' from leads l
        where l.user_id = ${users.id} order by l.created_at limit 1)`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.installationId, access.installationId))
    .orderBy(asc(sql`lower(${users.username})`));
  const repos = await db
    .select({ fullName: repositories.fullName })
    .from(repositories)
    .where(and(eq(repositories.installationId, access.installationId), isNull(repositories.removedAt)))
    .orderBy(asc(repositories.fullName));
  return {
    installation: {
      id: access.installationId,
      name: access.name,
      manage_repositories_url: manageRepositoriesUrl(options.webUrl, access),
    },
    repositories: repos.map((r) => r.fullName),
    users: rows.map((row) => ({ ...row, utm_source: options.productAdmin ? row.utm_source : null })),
  };
}
