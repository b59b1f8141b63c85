// Fixtures shared by this folder's database tests (no vitest import so it type-checks with the package).
import { agents, installations, users, type Db } from '@tandem/db';
import { sql } from 'drizzle-orm';

/** An installation, a user and `count` agents on it; returns the agents' ids. */
export async function insertTestAgents(
  db: Db,
  count = 1,
  extra: Partial<typeof agents.$inferInsert> = {},
): Promise<string[]> {
  await db.insert(installations).values({ id: 7, accountLogin: 'acme', accountType: 'Organization' });
  const [user] = await db.insert(users).values({ githubId: 1, username: 'ada' }).returning();
  const ids: string[] = [];
  for (let number = 1; number <= count; number++) {
    const [agent] = await db
      .insert(agents)
      .values({
        number,
        installationId: 7,
        creatorId: user!.id,
        model: 'm',
        summarizationLimit: 100_000,
        ...extra,
      })
      .returning({ id: agents.id });
    ids.push(agent!.id);
  }
  return ids;
}

/**
 * The agent row's xmin, the transaction that wrote its current version: unchanged across a call,
 * the call wrote nothing to the row.
 */
export async function agentRowVersion(db: Db, agentId: string): Promise<string> {
  const result = (await db.execute(
    sql`select xmin::text as v from agents where id = ${agentId}`,
  )) as unknown as {
    rows: { v: string }[];
  };
  return result.rows[0]!.v;
}
