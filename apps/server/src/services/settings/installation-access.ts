import { and, eq, isNull } from 'drizzle-orm';
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
  let installationId = requested;
  if (installationId === null) {
    const [settings] = await db
      .select({ active: userSettings.activeInstallationId })
      .from(userSettings)
      .where(eq(userSettings.userId, userId));
    installationId = settings?.active ?? null;
  }
  if (installationId === null) {
    // No stored choice: the first installation, as GET /api/users/me does.
    const [first] = await db
      .select({ id: installations.id })
      .from(memberships)
      .innerJoin(installations, eq(installations.id, memberships.installationId))
      .where(and(eq(memberships.userId, userId), isNull(installations.deletedAt)))
      .orderBy(installations.accountLogin)
      .limit(1);
    if (!first) throw new AppError('not_found', SETTINGS_MESSAGES.noInstallation);
    installationId = first.id;
  }
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
  if (!row) throw notFound('Installation not found');
  return { installationId, ...row };
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
