import { and, asc, eq, isNull } from 'drizzle-orm';
import { installations, memberships, userSettings, type Db } from '@tandem/db';
import { SETTINGS_MESSAGES, type InstallationRole } from '@tandem/shared';
import { AppError, notFound } from '../../errors/app-error.js';

export interface InstallationAccess {
  installationId: number;
  name: string;
  accountType: 'User' | 'Organization';
  role: InstallationRole;
}

/**
 * The caller's membership of an installation: the one named (X-Installation-ID, or a query
 * parameter), else their active one. Not a member, or a deleted installation: 404, so outsiders
 * cannot tell which installations exist.
 */
export async function installationAccess(
  db: Db,
  userId: string,
  requested: number | null,
): Promise<InstallationAccess> {
  if (requested !== null) {
    const access = await membershipOf(db, userId, requested);
    if (!access) throw notFound('Installation not found');
    return access;
  }
  // No installation named: the active one, as GET /api/users/me picks it (a stored choice the user
  // no longer belongs to does not count; without one, the first installation).
  const [settings] = await db
    .select({ active: userSettings.activeInstallationId })
    .from(userSettings)
    .where(eq(userSettings.userId, userId));
  const stored = settings?.active ?? null;
  const active = stored === null ? null : await membershipOf(db, userId, stored);
  if (active) return active;
  const [first] = await db
    .select({ id: installations.id })
    .from(memberships)
    .innerJoin(installations, eq(installations.id, memberships.installationId))
    .where(and(eq(memberships.userId, userId), isNull(installations.deletedAt)))
    .orderBy(asc(installations.accountLogin))
    .limit(1);
  const access = first ? await membershipOf(db, userId, first.id) : null;
  if (!access) throw new AppError('not_found', SETTINGS_MESSAGES.noInstallation);
  return access;
}

async function membershipOf(
  db: Db,
  userId: string,
  installationId: number,
): Promise<InstallationAccess | null> {
  const [row] = await db
    .select({
      name: installations.accountLogin,
      accountType: installations.accountType,
      role: memberships.role,
    })
    .from(memberships)
    .innerJoin(installations, eq(installations.id, memberships.installationId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.installationId, installationId),
        isNull(installations.deletedAt),
      ),
    )
    .limit(1);
  return row ? { installationId, ...row } : null;
}

/** Installation admins only (platform §6): everyone else gets 403. */
export async function installationAdminAccess(
  db: Db,
  userId: string,
  requested: number | null,
): Promise<InstallationAccess> {
  const access = await installationAccess(db, userId, requested);
  if (access.role !== 'admin') throw new AppError('forbidden', SETTINGS_MESSAGES.notAdmin);
  return access;
}
