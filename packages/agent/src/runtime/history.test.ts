import { agents, conversationItems, eventImages, spiceMessages } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { asc, eq, sql } from 'drizzle-orm';
import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextTimestamp } from './clock.js';
import { syncUserMessages } from './fed-messages.js';
import { appendSpice, IMAGE_REF, loadHistory, RunHistory } from './history.js';
import { insertTestAgents } from './test-support.js';

/** The production bounds (20 images, 20 MiB) scaled down so the test stores little. */
const LIMITS = { images: 6, bytes: 50_000 };

describe('loadHistory: images sent to the model are bounded', () => {
  let database: TestDatabase;
  let agentId: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    [agentId] = (await insertTestAgents(database.db)) as [string];
  });
  afterAll(async () => {
    await database?.destroy();
  });

  async function messageWithImages(count: number, bytes: number): Promise<void> {
    const actionUuid = crypto.randomUUID();
    for (let n = 0; n < count; n++) {
      await database.db.insert(eventImages).values({
        actionUuid,
        n,
        agentId,
        mimeType: 'image/png',
        name: `shot-${n}.png`,
        bytes: Buffer.alloc(bytes, n + 1),
      });
    }
    const content = [
      { type: 'text' as const, text: 'look' },
      ...Array.from({ length: count }, (_, n) => ({
        type: 'image' as const,
        image: `${IMAGE_REF}${actionUuid}/${n}`,
        mediaType: 'image/png',
      })),
    ];
    await appendSpice(database.db, agentId, { role: 'user', content } as ModelMessage);
  }

  const images = (messages: ModelMessage[]) =>
    messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image').map((p) => p) : [],
    );
  const notes = (messages: ModelMessage[]) =>
    messages.flatMap((m) =>
      Array.isArray(m.content)
        ? m.content.flatMap((p) => (p.type === 'text' && p.text.startsWith('[') ? [p.text] : []))
        : [],
    );

  it('sends every image of a small conversation', async () => {
    await messageWithImages(2, 1000);
    const history = await loadHistory(database.db, agentId, LIMITS);
    expect(images(history)).toHaveLength(2);
    expect(notes(history)).toEqual([]);
  });

  it('keeps only the newest images within the count and byte bounds, the rest as a note', async () => {
    // By count: 8 more small images, more than 6 may go.
    for (let i = 0; i < 2; i++) await messageWithImages(4, 1000);
    const byCount = await loadHistory(database.db, agentId, LIMITS);
    expect(images(byCount)).toHaveLength(6);
    expect(notes(byCount)).toHaveLength(4);
    // By bytes: three of 20 kB each fit in 50 kB, older ones do not.
    await messageWithImages(3, 20_000);
    const history = await loadHistory(database.db, agentId, LIMITS);
    const sent = images(history);
    const bytes = sent.reduce((sum, p) => sum + (p.image as Uint8Array).length, 0);
    expect(bytes).toBeLessThanOrEqual(LIMITS.bytes);
    // The newest six: three of 20 kB (only two fit in 50 kB) and three small ones that still fit.
    expect(sent.length).toBe(5);
    expect(notes(history)).toHaveLength(13 - sent.length);
    // The newest message's images are among those sent.
    const last = history.at(-1)!;
    expect(Array.isArray(last.content) && last.content.filter((p) => p.type === 'image').length).toBe(2);
  });
});

describe.each(testDatabaseKinds())('appendSpice on %s', (kind) => {
  let database: TestDatabase;
  let agentId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [agentId] = (await insertTestAgents(database.db)) as [string];
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('stores no stats as SQL NULL and given stats as the object, next to the message', async () => {
    const stats = {
      input_tokens: 5,
      cached_tokens: 0,
      output_tokens: 2,
      reasoning_tokens: 0,
      time: 1.5,
      cost: 3,
    };
    await appendSpice(database.db, agentId, { role: 'user', content: 'first\u0000' });
    await appendSpice(
      database.db,
      agentId,
      { role: 'assistant', content: 'second' },
      { responseStats: stats, actionUuid: '8f9c6a53-5a2e-4d7b-9d5e-2b5f6c1a7e01' },
    );
    const rows = await database.db
      .select({
        role: spiceMessages.role,
        content: spiceMessages.content,
        stats: spiceMessages.responseStats,
        nullStats: sql<boolean>`${spiceMessages.responseStats} is null`,
        actionUuid: spiceMessages.actionUuid,
      })
      .from(spiceMessages)
      .where(eq(spiceMessages.agentId, agentId))
      .orderBy(asc(spiceMessages.timestamp));
    expect(rows).toEqual([
      { role: 'user', content: 'first', stats: null, nullStats: true, actionUuid: null },
      {
        role: 'assistant',
        content: 'second',
        stats,
        nullStats: false,
        actionUuid: '8f9c6a53-5a2e-4d7b-9d5e-2b5f6c1a7e01',
      },
    ]);
    expect(await loadHistory(database.db, agentId)).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'second' },
    ]);
  });
});

describe.each(testDatabaseKinds())('syncUserMessages on %s', (kind) => {
  let database: TestDatabase;
  let agentId: string;
  let userId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [agentId] = (await insertTestAgents(database.db, 1, { spentSinceMessage: 5 })) as [string];
    const [agent] = await database.db.select({ creatorId: agents.creatorId }).from(agents);
    userId = agent!.creatorId;
  });
  afterAll(async () => {
    await database?.destroy();
  });

  async function message(text: string, images: { n: number; mimeType: string }[] = []): Promise<string> {
    const actionUuid = crypto.randomUUID();
    await database.db.insert(conversationItems).values({
      agentId,
      timestamp: nextTimestamp(),
      itemType: 'message',
      actionUuid,
      userId,
      data: { message: text, username: 'ada' },
    });
    for (const image of images)
      await database.db.insert(eventImages).values({
        actionUuid,
        n: image.n,
        agentId,
        mimeType: image.mimeType,
        name: `image-${image.n}`,
        bytes: Buffer.from([image.n]),
      });
    return actionUuid;
  }

  const spent = async () =>
    (
      await database.db.select({ spent: agents.spentSinceMessage }).from(agents).where(eq(agents.id, agentId))
    )[0]!.spent;

  it('feeds each message once, with its own images in order, and restarts the budget', async () => {
    // Stored out of order, and another message's image beside them: each message gets its own, by n.
    const first = await message('first', [
      { n: 1, mimeType: 'image/jpeg' },
      { n: 0, mimeType: 'image/png' },
    ]);
    await message('second');
    await database.db.insert(eventImages).values({
      actionUuid: crypto.randomUUID(),
      n: 0,
      agentId,
      mimeType: 'image/gif',
      name: 'elsewhere',
      bytes: Buffer.from([9]),
    });
    const stored = await syncUserMessages(database.db, agentId);
    expect(stored.map((s) => s.message)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'ada: first' },
          { type: 'image', image: `${IMAGE_REF}${first}/0`, mediaType: 'image/png' },
          { type: 'image', image: `${IMAGE_REF}${first}/1`, mediaType: 'image/jpeg' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'ada: second' }] },
    ]);
    // What it returns is what a read gives back.
    const history = await loadHistory(database.db, agentId, { images: 0, bytes: 0 });
    expect(history.map((m) => (m.content as { type: string }[])[0])).toEqual([
      { type: 'text', text: 'ada: first' },
      { type: 'text', text: 'ada: second' },
    ]);
    expect(stored[0]!.timestamp < stored[1]!.timestamp).toBe(true);
    expect(await spent()).toBe(0);
    expect(await syncUserMessages(database.db, agentId)).toEqual([]);
  });

  it('lets a run take what it fed as stored, then read only what is newer', async () => {
    const run = new RunHistory(database.db, agentId);
    const before = await run.current();
    await message('fifth');
    const fed = await syncUserMessages(database.db, agentId);
    const after = await run.stored(fed);
    expect(after).toEqual([...before, ...fed.map((f) => f.message)]);
    await appendSpice(database.db, agentId, { role: 'assistant', content: 'reply' });
    const latest = await run.current();
    expect(latest).toEqual([...after, { role: 'assistant', content: 'reply' }]);
    // The same as reading it all afresh.
    expect(latest).toEqual(await loadHistory(database.db, agentId));
  });

  it("takes the model's answer as stored, skips the read after it, and reads again after that", async () => {
    const run = new RunHistory(database.db, agentId);
    const before = await run.current();
    const reply = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'done \u0000' }] };
    const { timestamp, json } = await appendSpice(database.db, agentId, reply);
    await run.answered([{ message: { role: 'assistant', content: JSON.parse(json) }, timestamp }]);
    // Written behind the run's back (which nothing does): the read after an answer does not query.
    await appendSpice(database.db, agentId, { role: 'user', content: 'behind its back' });
    const answered = await run.current();
    expect(answered).toHaveLength(before.length + 1);
    // The answer as a read gives it back (a NUL is not storable), and the next read queries again.
    const fresh = await loadHistory(database.db, agentId);
    expect(answered).toEqual(fresh.slice(0, -1));
    expect(await run.current()).toEqual(fresh);
  });

  it('leaves the budget alone only when told nothing was spent since the last message', async () => {
    await database.db.update(agents).set({ spentSinceMessage: 3 }).where(eq(agents.id, agentId));
    await message('third');
    // Told wrongly, to show the write is skipped: a run passes the value it read this step.
    expect(await syncUserMessages(database.db, agentId, { spentSinceMessage: 0 })).toHaveLength(1);
    expect(await spent()).toBe(3);
    await message('fourth');
    expect(await syncUserMessages(database.db, agentId, { spentSinceMessage: 3 })).toHaveLength(1);
    expect(await spent()).toBe(0);
  });
});
