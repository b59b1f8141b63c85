import { agentReads, agents, conversationItems, eventImages, repositories } from '@tandem/db';
import {
  createTestDatabase,
  seedAcmeRepository,
  testDatabaseKinds,
  type TestDatabase,
} from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAgent, type NewAgent } from './insert-agent.js';

describe.each(testDatabaseKinds())('insertAgent on %s', (kind) => {
  let database: TestDatabase;
  let spec: (body: string, extra?: Partial<NewAgent>) => NewAgent;
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    const { userId, repositoryId } = await seedAcmeRepository(database.db);
    spec = (body, extra = {}) => ({
      repositoryId,
      installationId: 7,
      creatorId: userId,
      model: { key: 'sonnet-4-5', defaultLimit: 150_000 },
      reviewModel: null,
      firstMessage: { actionType: 'website_request', data: { message: body, username: 'ada' } },
      ...extra,
    });
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('stores the agent with its first message, images and read mark', async () => {
    const image = { mimeType: 'image/png', name: 'shot.png', bytes: Buffer.from([1, 2, 3]) };
    const { agentId, eventUuid } = await insertAgent(
      database.db,
      spec('Fix the build', {
        firstMessage: {
          actionType: 'cli_request',
          data: { message: 'Fix the build' },
          images: [image, image],
        },
      }),
    );
    const [agent] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(agent).toMatchObject({
      number: 1,
      status: 'pending',
      model: 'sonnet-4-5',
      summarizationLimit: 150_000,
    });
    const items = await database.db
      .select()
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agentId));
    expect(items).toEqual([
      expect.objectContaining({
        actionUuid: eventUuid,
        itemType: 'message',
        actionType: 'cli_request',
        userId: agent!.creatorId,
        data: { message: 'Fix the build' },
      }),
    ]);
    // The feed's newest item and the agent's latest timestamp are the same moment.
    expect(new Date(items[0]!.timestamp).getTime()).toBe(agent!.latestTimestamp!.getTime());
    const images = await database.db.select().from(eventImages).where(eq(eventImages.agentId, agentId));
    expect(images.map((i) => [i.actionUuid, i.n, i.name])).toEqual([
      [eventUuid, 1, 'shot.png'],
      [eventUuid, 2, 'shot.png'],
    ]);
    const reads = await database.db.select().from(agentReads).where(eq(agentReads.agentId, agentId));
    expect(reads).toEqual([expect.objectContaining({ userId: agent!.creatorId })]);
  });

  it('numbers agents created at once on one repository without a gap or a repeat', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => insertAgent(database.db, spec(`Task ${i}`))),
    );
    const numbers = await Promise.all(
      created.map(async ({ agentId }) => {
        const [row] = await database.db
          .select({ n: agents.number })
          .from(agents)
          .where(eq(agents.id, agentId));
        return row!.n;
      }),
    );
    // Agent 1 is the previous test's.
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 2));
  });

  it('stores nothing when any part cannot be written', async () => {
    const count = async () => (await database.db.select({ id: agents.id }).from(agents)).length;
    const before = await count();
    const items = (await database.db.select({ id: conversationItems.id }).from(conversationItems)).length;
    // The image's bytes are not bytea: its insert fails, and with it the agent and its message.
    const broken = { mimeType: 'image/png', name: 'x.png', bytes: null as unknown as Buffer };
    await expect(
      insertAgent(
        database.db,
        spec('Broken', { firstMessage: { actionType: 'website_request', data: {}, images: [broken] } }),
      ),
    ).rejects.toThrow();
    expect(await count()).toBe(before);
    expect((await database.db.select({ id: conversationItems.id }).from(conversationItems)).length).toBe(
      items,
    );
  });
  it('numbers after an agent written another way, and refuses a repository that does not exist', async () => {
    const base = spec('Imported');
    await database.db.insert(agents).values({
      number: 50,
      repositoryId: base.repositoryId,
      installationId: 7,
      creatorId: base.creatorId,
      model: 'sonnet-4-5',
      summarizationLimit: 150_000,
    });
    const { agentId } = await insertAgent(database.db, spec('After the import'));
    const [row] = await database.db.select({ n: agents.number }).from(agents).where(eq(agents.id, agentId));
    expect(row!.n).toBe(51);

    const before = (await database.db.select({ id: agents.id }).from(agents)).length;
    await expect(
      insertAgent(database.db, spec('Nowhere', { repositoryId: '00000000-0000-4000-8000-000000000000' })),
    ).rejects.toThrow();
    expect((await database.db.select({ id: agents.id }).from(agents)).length).toBe(before);
  });

  it('stores the agents created together in one statement, numbered per repository in order', async () => {
    const { db } = database;
    const [other] = await db
      .insert(repositories)
      .values({ githubId: 3, installationId: 7, fullName: 'acme/api' })
      .returning({ id: repositories.id });
    const numberOf = async (agentId: string) =>
      (await db.select({ n: agents.number }).from(agents).where(eq(agents.id, agentId)))[0]!.n;
    const webappBefore = Math.max(...(await db.select({ n: agents.number }).from(agents)).map((r) => r.n));
    // Text a JSON row could get wrong: quotes, backslashes, a closing brace, non-ASCII.
    const bodies = ['plain', 'a "quoted" \\ back}slash ]', 'ünïcødé ☃ 𝄞', 'api one', 'api two', 'last'];
    const repositoryOf = (n: number) => (n === 3 || n === 4 ? other!.id : spec('').repositoryId);
    statements.length = 0;
    const created = await Promise.all(
      bodies.map((body, n) =>
        insertAgent(
          db,
          spec(body, {
            repositoryId: repositoryOf(n),
            baseBranch: n === 5 ? 'develop' : null,
            firstMessage: { actionType: 'cli_request', data: { message: body, username: 'ada' } },
          }),
        ),
      ),
    );
    // The first went at once; the five queued behind it went as one.
    expect(statements.filter((q) => /insert into "agents"/.test(q))).toHaveLength(2);
    expect(await Promise.all(created.map(({ agentId }) => numberOf(agentId)))).toEqual([
      webappBefore + 1,
      webappBefore + 2,
      webappBefore + 3,
      1,
      2,
      webappBefore + 4,
    ]);
    for (const [n, { agentId, eventUuid }] of created.entries()) {
      const [agent] = await db.select().from(agents).where(eq(agents.id, agentId));
      expect(agent).toMatchObject({
        status: 'pending',
        repositoryId: repositoryOf(n),
        baseBranch: n === 5 ? 'develop' : null,
        model: 'sonnet-4-5',
        summarizationLimit: 150_000,
        agentType: 'editor',
      });
      const items = await db.select().from(conversationItems).where(eq(conversationItems.agentId, agentId));
      expect(items).toEqual([
        expect.objectContaining({
          actionUuid: eventUuid,
          actionType: 'cli_request',
          userId: agent!.creatorId,
          data: { message: bodies[n], username: 'ada' },
        }),
      ]);
      expect(new Date(items[0]!.timestamp).getTime()).toBe(agent!.latestTimestamp!.getTime());
      const reads = await db.select().from(agentReads).where(eq(agentReads.agentId, agentId));
      expect(reads).toEqual([expect.objectContaining({ userId: agent!.creatorId })]);
    }
  });

  it('fails only the create that cannot be stored among those created together', async () => {
    const { db } = database;
    const count = async () => (await db.select({ id: agents.id }).from(agents)).length;
    const before = await count();
    const results = await Promise.allSettled([
      insertAgent(db, spec('One')),
      insertAgent(db, spec('Two')),
      insertAgent(db, spec('Nowhere', { repositoryId: '00000000-0000-4000-8000-000000000000' })),
      insertAgent(db, spec('Three')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(await count()).toBe(before + 3);
  });
});
