import {
  agents,
  conversationItems,
  eventImages,
  installations,
  repositories,
  repositorySecrets,
  userSettings,
} from '@tandem/db';
import { testDatabaseKinds, createTestDatabase, type TestDatabase } from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAwakeAgent, readRunRow, readSealedSecrets, readStepRow } from './agent-row.js';
import { appendSpice, readUnfedMessages } from './history.js';
import { insertTestAgents } from './test-support.js';

/**
 * A run's first statement (issue 15): an awake agent is set 'open' and read with everything its
 * first step needs in one go; any other start is left alone for the run's full decision.
 */
describe.each(testDatabaseKinds())('openAwakeAgent on %s', (kind) => {
  let database: TestDatabase;
  let ids: string[];
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    ids = await insertTestAgents(database.db, 10);
    const { db } = database;
    await db.update(installations).set({ creditBalance: 4200 }).where(eq(installations.id, 7));
    const [repo] = await db
      .insert(repositories)
      .values({ githubId: 70, installationId: 7, fullName: 'acme/webapp', creditLimit: 1500 })
      .returning({ id: repositories.id });
    // Sealed as the server's secret box leaves them: the run only carries them to openSecret.
    await db.insert(repositorySecrets).values([
      { repositoryId: repo!.id, key: 'API_TOKEN', sealedValue: 'v1:sealed-one' },
      { repositoryId: repo!.id, key: 'QUOTED', sealedValue: 'v1:"a\\b"\n' },
    ]);
    // 0 pending, 1 paused, 2 failed, 3 archived, 4 waiting, 5 pending without a repository, 6-8
    // pending, 9 paused.
    for (const id of [...ids.slice(0, 5), ...ids.slice(6)])
      await db.update(agents).set({ repositoryId: repo!.id }).where(eq(agents.id, id));
    await db.update(agents).set({ status: 'paused' }).where(eq(agents.id, ids[1]!));
    await db.update(agents).set({ status: 'paused' }).where(eq(agents.id, ids[9]!));
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
    // The repository's secrets, sealed, as the sandbox's own read gives them.
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect([...opened!.secrets].sort(byKey)).toEqual([
      { key: 'API_TOKEN', sealed: 'v1:sealed-one' },
      { key: 'QUOTED', sealed: 'v1:"a\\b"\n' },
    ]);
    expect([...opened!.secrets].sort(byKey)).toEqual(
      [...(await readSealedSecrets(database.db, opened!.repo!.id))].sort(byKey),
    );
  });

  it('brings the user messages not yet fed, and whether there is a context to read', async () => {
    const { db } = database;
    const [creator] = await db.select({ id: agents.creatorId }).from(agents).where(eq(agents.id, ids[0]!));
    const message = (text: string, timestamp: string) => ({
      agentId: ids[0]!,
      timestamp,
      itemType: 'message',
      actionUuid: crypto.randomUUID(),
      userId: creator!.id,
      data: { message: text, username: 'ada', nested: { quote: 'a "b" \\ c' } },
    });
    const first = message('First, with an image.', '2026-11-29T04:00:00.000001Z');
    const second = message('Second.', '2026-11-29T04:00:00.000002Z');
    await db.insert(conversationItems).values([second, first]);
    await db.insert(eventImages).values([
      {
        actionUuid: first.actionUuid,
        agentId: ids[0]!,
        n: 1,
        mimeType: 'image/png',
        name: 'b.png',
        bytes: Buffer.from('png'),
      },
      {
        actionUuid: first.actionUuid,
        agentId: ids[0]!,
        n: 0,
        mimeType: 'image/jpeg',
        name: 'a.jpg',
        bytes: Buffer.from('jpg'),
      },
    ]);
    // Oldest first, with their images in order.
    const unfed = await readUnfedMessages(db, ids[0]!);
    expect(unfed.map((m) => m.data.message)).toEqual(['First, with an image.', 'Second.']);
    expect(unfed[0]!.images).toEqual([
      { n: 0, mimeType: 'image/jpeg' },
      { n: 1, mimeType: 'image/png' },
    ]);
    const opened = await openAwakeAgent(db, ids[0]!);
    expect(opened!.unfed).toEqual(unfed);
    expect((await readStepRow(db, ids[0]!))!.unfed).toEqual(unfed);
    expect(opened!.hasContext).toBe(false);

    // Once fed, a message is no longer brought; the agent now has a context.
    await appendSpice(db, ids[0]!, { role: 'user', content: 'First.' }, { actionUuid: first.actionUuid });
    const later = await openAwakeAgent(db, ids[0]!);
    expect(later!.unfed.map((m) => m.actionUuid)).toEqual([second.actionUuid]);
    expect((await readStepRow(db, ids[0]!))!.unfed).toEqual(later!.unfed);
    expect(later!.hasContext).toBe(true);
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
    expect(opened?.secrets).toEqual([]);
    expect(opened?.agent.status).toBe('open');
  });

  it('opens the agents that start together in one statement, each with its own row', async () => {
    statements.length = 0;
    const starting = [ids[6]!, ids[7]!, ids[9]!, ids[8]!, crypto.randomUUID(), ids[7]!];
    const opened = await Promise.all(starting.map((id) => openAwakeAgent(database.db, id)));
    // The first goes at once; the rest queued behind it and went as one, but for the agent asked
    // for twice, whose second start has a statement of its own (and finds it open already).
    expect(opened.map((o) => o?.agent.id ?? null)).toEqual([ids[6], ids[7], null, ids[8], null, ids[7]]);
    expect(statements.filter((q) => /^update "agents" set "status"/.test(q))).toHaveLength(3);
    for (const [n, o] of opened.entries()) if (o) expect(o.agent.id).toBe(starting[n]);
    expect(opened[3]!.requester).toEqual({ username: 'ada', email: null, autoCreatePr: false });
    expect(opened[3]!.repo).toMatchObject({ fullName: 'acme/webapp' });
    expect(await statusOf(ids[9]!)).toBe('paused');
    expect(await statusOf(ids[8]!)).toBe('open');
  });
});
