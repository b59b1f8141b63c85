import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from './prepared.js';
import { users } from './schema/index.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from './testing/index.js';

describe.each(testDatabaseKinds())('prepared statements on %s', (kind) => {
  let database: TestDatabase;
  let other: TestDatabase;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    other = await createTestDatabase(kind);
    for (const db of [database.db, other.db]) {
      await db.insert(users).values([
        { githubId: 1, username: 'ada' },
        { githubId: 2, username: 'grace' },
      ]);
    }
  });
  afterAll(async () => {
    await database?.destroy();
    await other?.destroy();
  });

  let builds = 0;
  const byGithubId = (db: TestDatabase['db']) =>
    prepared(db, 'test_user_by_github_id', (d, name) => {
      builds += 1;
      return d
        .select({ username: users.username })
        .from(users)
        .where(eq(users.githubId, sql.placeholder('githubId')))
        .prepare(name);
    });

  it('builds a statement once per database and runs it with each call’s values', async () => {
    builds = 0;
    expect(await byGithubId(database.db).execute({ githubId: 1 })).toEqual([{ username: 'ada' }]);
    expect(await byGithubId(database.db).execute({ githubId: 2 })).toEqual([{ username: 'grace' }]);
    expect(await byGithubId(database.db).execute({ githubId: 3 })).toEqual([]);
    expect(builds).toBe(1);
    // Each run sent the same text: only the values differ.
    const texts = statements.filter((s) => s.includes('"github_id" = $1'));
    expect(texts).toHaveLength(3);
    expect(new Set(texts).size).toBe(1);
  });

  it('builds it again for another database, which it then reads', async () => {
    builds = 0;
    await other.db.update(users).set({ username: 'ada2' }).where(eq(users.githubId, 1));
    expect(await byGithubId(other.db).execute({ githubId: 1 })).toEqual([{ username: 'ada2' }]);
    expect(await byGithubId(database.db).execute({ githubId: 1 })).toEqual([{ username: 'ada' }]);
    expect(builds).toBe(1);
  });

  it('builds it for a transaction, whose writes it sees', async () => {
    builds = 0;
    await database.db
      .transaction(async (tx) => {
        await tx.update(users).set({ username: 'ada-in-tx' }).where(eq(users.githubId, 1));
        expect(await byGithubId(tx).execute({ githubId: 1 })).toEqual([{ username: 'ada-in-tx' }]);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(builds).toBe(1);
    expect(await byGithubId(database.db).execute({ githubId: 1 })).toEqual([{ username: 'ada' }]);
  });

  it('refuses a missing value instead of running without it', async () => {
    await expect(byGithubId(database.db).execute({})).rejects.toThrow(/githubId/);
  });
});
