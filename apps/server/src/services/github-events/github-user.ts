import { eq } from 'drizzle-orm';
import { users, type Db } from '@tandem/db';

/**
 * The Tandem user of a code-host account, created when they have never signed in: an agent a
 * person starts from GitHub is theirs, and becomes visible to them when they first sign in with
 * the same account (docs/decisions.md "Agents started from GitHub").
 */
export async function ensureCodeHostUser(
  db: Db,
  account: { id: number; login: string; avatarUrl: string | null },
): Promise<{ id: string; username: string }> {
  await db
    .insert(users)
    .values({ githubId: account.id, username: account.login, avatarUrl: account.avatarUrl })
    .onConflictDoNothing({ target: users.githubId });
  const [user] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.githubId, account.id));
  return user!;
}
