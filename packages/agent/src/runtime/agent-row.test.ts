import { agents, installations, repositories, userSettings } from '@tandem/db';
import { testDatabaseKinds, createTestDatabase, type TestDatabase } from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAwakeAgent, readRunRow, readStepRow } from './agent-row.js';
import { insertTestAgents } from './test-support.js';

/**
 * A run's first statement (issue 15): an awake agent is set 'open' and read with everything its
 * first step needs in one go; any other start is left alone for the run's full decision.
 */
describe.each(testDatabaseKinds())('openAwakeAgent on %s', (kind) => {
  let database: TestDatabase;
  let ids: string[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ids = await insertTestAgents(database.db, 6);
    const { db } = database;
    await db.update(installations).set({ creditBalance: 4200 }).where(eq(installations.id, 7));
    const [repo] = await db
      .insert(repositories)
      .values({ githubId: 70, installationId: 7, fullName: 'acme/webapp', creditLimit: 1500 })
      .returning({ id: repositories.id });
    // 0 pending, 1 paused, 2 failed, 3 archived, 4 waiting, 5 pending without a repository.
    for (const id of ids.slice(0, 5))
      await db.update(agents).set({ repositoryId: repo!.id }).where(eq(agents.id, id));
    await db.update(agents).set({ status: 'paused' }).where(eq(agents.id, ids[1]!));
    await db.update(agents).set({ status: 'failed' }).where(eq(agents.id, ids[2]!));
    await db.update(agents).set({ archived: true }).where(eq(agents.id, ids[3]!));
    await db
      .update(agents)
      .set({ status: 'waiting', wakeAt: new Date(Date.now() + 60_000) })
      .where(eq(agents.id, ids[4]!));
    const [creator] = await db.select({ id: agents.creatorId }).from(agents).where(eq(agents.id, ids[0]!));
    await db.insert(userSettings).values({ userId: creator!.id, autoCreatePr: false });
  });
  afterAll(() => database.destroy());

  const statusOf = async (id: string) =>
    (await database.db.select({ status: agents.status }).from(agents).where(eq(agents.id, id)))[0]?.status;

  it('opens an awake agent and brings what its first step reads, as that read gives it', async () => {
    const opened = await openAwakeAgent(database.db, ids[0]!);
    expect(opened).not.toBeNull();
    expect(opened!.agent.status).toBe('open');
    expect(await statusOf(ids[0]!)).toBe('open');
    // The repository as the other start's read gives it.
    expect(opened!.repo).toEqual((await readRunRow(database.db, ids[0]!))!.repo);
    expect(opened!.repo).toMatchObject({ fullName: 'acme/webapp', owner: 'acme', creditLimit: 1500 });
    // The same agent row (dates as Dates), balance and requester as every later step's read.
    const step = await readStepRow(database.db, ids[0]!);
    expect(opened!.agent).toEqual(step!.agent);
    expect(opened!.balance).toBe(4200);
    expect(opened!.balance).toBe(step!.balance);
    expect(opened!.requester).toEqual({ username: 'ada', email: null, autoCreatePr: false });
    expect(opened!.requester).toEqual(step!.requester);
  });

  it('leaves paused, failed, archived and waiting agents alone', async () => {
    for (const [i, status] of [
      [1, 'paused'],
      [2, 'failed'],
      [3, 'pending'],
      [4, 'waiting'],
    ] as const) {
      expect(await openAwakeAgent(database.db, ids[i]!)).toBeNull();
      expect(await statusOf(ids[i]!)).toBe(status);
    }
    expect(await openAwakeAgent(database.db, crypto.randomUUID())).toBeNull();
  });

  it('opens an agent without a repository and says it has none', async () => {
    const opened = await openAwakeAgent(database.db, ids[5]!);
    expect(opened?.repo).toBeNull();
    expect(opened?.agent.status).toBe('open');
  });
});
