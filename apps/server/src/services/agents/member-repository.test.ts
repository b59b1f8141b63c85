import { installations, memberships, repositories, users } from '@tandem/db';
import {
  createTestDatabase,
  seedAcmeRepository,
  testDatabaseKinds,
  type TestDatabase,
} from '@tandem/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMemberRepository } from './member-repository.js';

/**
 * The repository read of every agent creation (issue 15): reads that arrive together go as one
 * statement, and each caller gets the answer of its own viewer and repository.
 */
describe.each(testDatabaseKinds())('readMemberRepository on %s', (kind) => {
  let database: TestDatabase;
  let ada: string;
  let bob: string;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    const { db } = database;
    ({ userId: ada } = await seedAcmeRepository(db));
    const [other] = await db
      .insert(users)
      .values({ githubId: 3, username: 'bob' })
      .returning({ id: users.id });
    bob = other!.id;
    await db.update(installations).set({ creditBalance: 900 });
    await db.insert(installations).values({ id: 8, accountLogin: 'bobco', accountType: 'User' });
    await db.insert(repositories).values([
      { githubId: 4, installationId: 8, fullName: 'bobco/Tool', defaultBranch: 'trunk', private: false },
      { githubId: 5, installationId: 8, fullName: 'bobco/gone', removedAt: new Date() },
    ]);
    await db.insert(memberships).values([
      { userId: ada, installationId: 7 },
      { userId: bob, installationId: 8 },
    ]);
  });
  afterAll(() => database.destroy());

  it('answers each caller for its own viewer and repository, reads that arrive together as one', async () => {
    statements.length = 0;
    const reads: [string, string][] = [
      [ada, 'acme/webapp'],
      [ada, 'ACME/WebApp'],
      [bob, 'acme/webapp'],
      [bob, 'bobco/tool'],
      [ada, 'bobco/Tool'],
      [ada, 'acme/webapp'],
      [bob, 'bobco/gone'],
      [ada, 'nobody/nothing'],
    ];
    const answers = await Promise.all(
      reads.map(([viewer, name]) => readMemberRepository(database.db, viewer, name)),
    );
    // The first alone, the rest queued behind it as one.
    expect(statements.filter((q) => /from \(select n/.test(q))).toHaveLength(2);
    expect(answers.map((a) => a && { name: a.fullName, member: a.member })).toEqual([
      { name: 'acme/webapp', member: true },
      { name: 'acme/webapp', member: true },
      { name: 'acme/webapp', member: false },
      { name: 'bobco/Tool', member: true },
      { name: 'bobco/Tool', member: false },
      { name: 'acme/webapp', member: true },
      undefined,
      undefined,
    ]);
    expect(answers[3]).toMatchObject({
      installationId: 8,
      defaultBranch: 'trunk',
      private: false,
      bannedAt: null,
      suspendedAt: null,
    });
    expect(Number(answers[0]!.balance)).toBe(900);
  });

  it('answers a lone read as before', async () => {
    expect(await readMemberRepository(database.db, bob, 'BOBCO/TOOL')).toMatchObject({
      fullName: 'bobco/Tool',
      member: true,
    });
  });
});
