import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { installations, memberships, repositories, userSettings, users, type Db } from '@tandem/db';
import type { User } from '@tandem/shared';
import { notFound } from '../errors/app-error.js';

/** Builds the User document of GET /api/users/me from the database. */
export async function loadUserProfile(db: Db, userId: string): Promise<User> {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      admin: users.admin,
      activeInstallationId: userSettings.activeInstallationId,
    })
    .from(users)
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('User not found');

  const memberOf = await db
    .select({
      id: installations.id,
      name: installations.accountLogin,
      avatar_url: installations.avatarUrl,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(installations, eq(installations.id, memberships.installationId))
    .where(and(eq(memberships.userId, userId), isNull(installations.deletedAt)))
    .orderBy(asc(installations.accountLogin));

  const installationIds = memberOf.map((i) => i.id);
  const repos = installationIds.length
    ? await db
        .select({ fullName: repositories.fullName })
        .from(repositories)
        .where(and(inArray(repositories.installationId, installationIds), isNull(repositories.removedAt)))
        .orderBy(asc(repositories.fullName))
    : [];

  // A stored choice the user no longer belongs to does not count; without one, the first
  // installation is active, so a user with any installation never lands on the chooser by force.
  const stored = row.activeInstallationId;
  const active = stored !== null && installationIds.includes(stored) ? stored : (installationIds[0] ?? null);
  return {
    user_id: row.id,
    username: row.username,
    email: row.email,
    admin: row.admin,
    installations: memberOf,
    repositories: repos.map((r) => r.fullName),
    active_installation_id: active,
  };
}

/** The user's sealed code-host token, or null when none is stored. */
export async function sealedUserToken(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: users.githubTokenEncrypted })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.sealed ?? null;
}

/** Makes one of the user's installations the active one (the caller checked membership). */
export async function setActiveInstallation(db: Db, userId: string, installationId: number): Promise<void> {
  await db
    .insert(userSettings)
    .values({ userId, activeInstallationId: installationId })
    .onConflictDoUpdate({
      target: userSettings.userId,
      set: { activeInstallationId: installationId, updatedAt: new Date() },
    });
}
