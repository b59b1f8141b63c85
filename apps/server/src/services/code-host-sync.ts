import { grantFreeCredits } from '@tandem/agent';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import {
  installations,
  membershipOverrides,
  memberships,
  repositories,
  userSettings,
  users,
  type Db,
} from '@tandem/db';

export interface CodeHostAccount {
  id: number;
  login: string;
  type: 'User' | 'Organization';
  avatarUrl: string | null;
}

export interface CodeHostRepository {
  id: number;
  fullName: string;
  private: boolean;
  defaultBranch: string;
}

export interface CodeHostInstallation {
  id: number;
  account: CodeHostAccount;
}

export interface CodeHostUserSnapshot {
  user: { id: number; login: string; email: string | null; avatarUrl: string | null };
  /** Sealed (encrypted) OAuth user token, stored so later reads can act as the user. */
  sealedToken: string;
  admin: boolean;
  installations: {
    installation: CodeHostInstallation;
    role: 'admin' | 'member';
    repositories: CodeHostRepository[];
  }[];
}

/**
 * Mirrors what the code host says about a user at sign-in: the user row, the installations they
 * can reach with their role, and the repositories they see there. Memberships the code host no
 * longer reports are removed, so access follows the code host, except where an installation admin
 * decided otherwise in Tandem's users table (membership_overrides: added, re-roled or removed).
 */
export async function syncUserFromCodeHost(db: Db, snapshot: CodeHostUserSnapshot): Promise<string> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [user] = await tx
      .insert(users)
      .values({
        githubId: snapshot.user.id,
        username: snapshot.user.login,
        email: snapshot.user.email,
        avatarUrl: snapshot.user.avatarUrl,
        admin: snapshot.admin,
        githubTokenEncrypted: snapshot.sealedToken,
      })
      .onConflictDoUpdate({
        target: users.githubId,
        set: {
          username: snapshot.user.login,
          email: snapshot.user.email,
          avatarUrl: snapshot.user.avatarUrl,
          admin: snapshot.admin,
          githubTokenEncrypted: snapshot.sealedToken,
          updatedAt: now,
        },
      })
      .returning({ id: users.id });
    const userId = user!.id;
    await tx.insert(userSettings).values({ userId }).onConflictDoNothing();

    for (const { installation, role, repositories: repos } of snapshot.installations) {
      await upsertInstallation(tx as unknown as Db, installation);
      await tx
        .insert(memberships)
        .values({ userId, installationId: installation.id, role })
        .onConflictDoUpdate({ target: [memberships.userId, memberships.installationId], set: { role } });
      await upsertRepositories(tx as unknown as Db, installation.id, repos);
    }
    // Installation admins' decisions in Tandem's users table win over the code host's view.
    const overrides = await tx
      .select({ installationId: membershipOverrides.installationId, role: membershipOverrides.role })
      .from(membershipOverrides)
      .where(eq(membershipOverrides.userId, userId));
    for (const override of overrides) {
      if (override.role === null) continue;
      await tx
        .insert(memberships)
        .values({ userId, installationId: override.installationId, role: override.role })
        .onConflictDoUpdate({
          target: [memberships.userId, memberships.installationId],
          set: { role: override.role },
        });
    }
    const reachable = [
      ...snapshot.installations.map((i) => i.installation.id),
      ...overrides.flatMap((o) => (o.role === null ? [] : [o.installationId])),
    ].filter((id) => !overrides.some((o) => o.role === null && o.installationId === id));
    await tx
      .delete(memberships)
      .where(
        reachable.length
          ? and(eq(memberships.userId, userId), notInArray(memberships.installationId, reachable))
          : eq(memberships.userId, userId),
      );
    return userId;
  });
}

export async function upsertInstallation(db: Db, installation: CodeHostInstallation): Promise<void> {
  const values = {
    accountLogin: installation.account.login,
    accountType: installation.account.type,
    accountGithubId: installation.account.id,
    avatarUrl: installation.account.avatarUrl,
  };
  await db
    .insert(installations)
    .values({ id: installation.id, ...values })
    .onConflictDoUpdate({
      target: installations.id,
      set: { ...values, deletedAt: null, updatedAt: new Date() },
    });
  await grantFreeCredits(db, installation.id);
}

export async function upsertRepositories(
  db: Db,
  installationId: number,
  repos: CodeHostRepository[],
): Promise<void> {
  for (const repo of repos) {
    const values = {
      installationId,
      fullName: repo.fullName,
      private: repo.private,
      defaultBranch: repo.defaultBranch,
      removedAt: null,
      updatedAt: new Date(),
    };
    await db
      .insert(repositories)
      .values({ githubId: repo.id, ...values })
      .onConflictDoUpdate({ target: repositories.githubId, set: values });
  }
}

export async function markRepositoriesRemoved(db: Db, githubIds: number[]): Promise<void> {
  if (!githubIds.length) return;
  await db
    .update(repositories)
    .set({ removedAt: new Date(), updatedAt: new Date() })
    .where(inArray(repositories.githubId, githubIds));
}

export async function markInstallationDeleted(db: Db, installationId: number): Promise<void> {
  await db
    .update(installations)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(eq(installations.id, installationId));
}

/** Grants the user who installed the app admin on the new installation, when we know them. */
export async function grantInstallerAdmin(
  db: Db,
  installationId: number,
  installerGithubId: number,
): Promise<void> {
  await db.execute(sql`
    INSERT INTO memberships (user_id, installation_id, role)
    SELECT id, ${installationId}, 'admin' FROM users WHERE github_id = ${installerGithubId}
    ON CONFLICT (user_id, installation_id) DO UPDATE SET role = 'admin'`);
}
