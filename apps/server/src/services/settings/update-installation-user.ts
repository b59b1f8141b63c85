import { and, eq, sql } from 'drizzle-orm';
import { membershipOverrides, memberships, users, type Db } from '@tandem/db';
import { SETTINGS_MESSAGES, type InstallationRole } from '@tandem/shared';
import { AppError } from '../../errors/app-error.js';
import type { CodeHostUserSummary } from '../../github/gateway.js';
import type { InstallationAccess } from './installation-access.js';

export interface UserLookup {
  /** Asks the code host for a user by login (null: no such user). */
  findUser(login: string): Promise<CodeHostUserSummary | null>;
}

/**
 * The user a username names: a Tandem user when one has it (case-insensitively, as code-host logins
 * are), else a code-host user, who gets a `users` row in the change's transaction so the membership
 * can point at it (their first sign-in fills in the rest, matched by code-host id).
 */
async function resolveUser(
  db: Db,
  username: string,
  lookup: UserLookup | null,
): Promise<{ id: string } | { codeHost: CodeHostUserSummary } | null> {
  const [known] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  if (known) return known;
  if (!lookup) return null;
  let found: CodeHostUserSummary | null;
  try {
    found = await lookup.findUser(username);
  } catch {
    throw new AppError('bad_gateway', 'Could not reach the code host to look the user up');
  }
  return found ? { codeHost: found } : null;
}

/**
 * Adds a user to the installation, changes their role, or removes them (role null). The decision
 * is stored as an override too, so the next sign-in's mirror of the code host keeps it.
 */
export async function updateInstallationUser(
  db: Db,
  access: InstallationAccess,
  actorId: string,
  change: { username: string; role: InstallationRole | null },
  lookup: UserLookup,
): Promise<void> {
  // Removing never creates anyone: only people already in the table can be removed.
  const target = await resolveUser(db, change.username, change.role === null ? null : lookup);
  if (!target) {
    throw new AppError(
      'not_found',
      change.role === null ? SETTINGS_MESSAGES.notMember : SETTINGS_MESSAGES.unknownUser,
    );
  }
  if ('id' in target && target.id === actorId) throw new AppError('forbidden', SETTINGS_MESSAGES.ownRow);
  const installationId = access.installationId;
  await db.transaction(async (tx) => {
    let userId: string;
    if ('id' in target) userId = target.id;
    else {
      const found = target.codeHost;
      const [row] = await tx
        .insert(users)
        .values({ githubId: found.id, username: found.login, avatarUrl: found.avatarUrl })
        .onConflictDoUpdate({ target: users.githubId, set: { username: found.login } })
        .returning({ id: users.id });
      userId = row!.id;
      if (userId === actorId) throw new AppError('forbidden', SETTINGS_MESSAGES.ownRow);
    }
    if (change.role === null) {
      const removed = await tx
        .delete(memberships)
        .where(and(eq(memberships.userId, userId), eq(memberships.installationId, installationId)))
        .returning({ userId: memberships.userId });
      if (!removed.length) throw new AppError('not_found', SETTINGS_MESSAGES.notMember);
    } else {
      await tx
        .insert(memberships)
        .values({ userId, installationId, role: change.role })
        .onConflictDoUpdate({
          target: [memberships.userId, memberships.installationId],
          set: { role: change.role },
        });
    }
    await tx
      .insert(membershipOverrides)
      .values({ installationId, userId, role: change.role, updatedBy: actorId })
      .onConflictDoUpdate({
        target: [membershipOverrides.installationId, membershipOverrides.userId],
        set: { role: change.role, updatedBy: actorId, updatedAt: new Date() },
      });
  });
}
