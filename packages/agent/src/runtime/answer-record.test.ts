import { agents, conversationItems, creditTransactions, spiceMessages, type Db } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantFreeCredits, installationBalance } from '../credits/ledger.js';
import { recordAnswer, type AnswerRecord } from './answer-record.js';
import { insertTestAgents } from './test-support.js';

/** Resolves once a session of this database waits for a lock (Postgres). */
async function untilBlocked(db: Db): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const result = await db.execute(
      sql`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database()`,
    );
    if ((result as unknown as { rows: { n: number }[] }).rows[0]!.n > 0) return;
    if (Date.now() > deadline) throw new Error('no statement waited for a lock');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stats = { input_tokens: 10, cached_tokens: 0, output_tokens: 5, reasoning_tokens: 0, time: 1, cost: 0 };

describe.each(testDatabaseKinds())('recordAnswer on %s', (kind) => {
  let database: TestDatabase;
  let agentId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    [agentId] = (await insertTestAgents(database.db)) as [string];
    await grantFreeCredits(database.db, 7);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  const answer = (over: Partial<AnswerRecord> = {}): AnswerRecord => ({
    charge: { installationId: 7, agentId, units: 250, curTokens: 15, description: 'Bench call' },
    message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    stats,
    item: {
      itemType: 'message',
      actionUuid: randomUUID(),
      data: { message: 'Done.', username: 'tandem', role: 'assistant' },
    },
    mayEnd: false,
    ...over,
  });

  const rowsOf = async () => {
    const { db } = database;
    const [agent] = await db.select().from(agents).where(eq(agents.id, agentId));
    return {
      agent: agent!,
      balance: await installationBalance(db, 7),
      ledger: await db.select().from(creditTransactions).where(eq(creditTransactions.agentId, agentId)),
      spice: await db.select().from(spiceMessages).where(eq(spiceMessages.agentId, agentId)),
      items: await db.select().from(conversationItems).where(eq(conversationItems.agentId, agentId)),
    };
  };

  it('charges the call and stores its message and feed item in one go', async () => {
    const before = await rowsOf();
    const recorded = await recordAnswer(database.db, answer());
    const after = await rowsOf();
    expect(after.balance).toBe(before.balance - 250);
    expect(recorded.balance).toBe(after.balance);
    expect(recorded.spentSinceMessage).toBe(250);
    expect(recorded.autoFillDue).toBe(false);
    expect(after.ledger).toHaveLength(before.ledger.length + 1);
    expect(after.ledger.at(-1)).toMatchObject({ amount: -250, kind: 'agent', description: 'Bench call' });
    expect(after.agent).toMatchObject({ creditsSpent: 250, spentSinceMessage: 250, curTokens: 15 });
    // The message as the model's context reads it, with the call's stats and the timestamp returned.
    const spice = after.spice.find((s) => s.timestamp === recorded.timestamp);
    expect(spice).toMatchObject({ role: 'assistant', responseStats: stats });
    expect(spice?.content).toEqual(JSON.parse(recorded.json));
    const item = after.items.find((i) => i.itemType === 'message');
    expect(item?.data).toEqual({ message: 'Done.', username: 'tandem', role: 'assistant' });
    // The feed's poll moves on to the item, on the row the charge updated.
    expect(after.agent.latestTimestamp).not.toBeNull();
    expect(new Date(after.agent.latestTimestamp!).getTime()).toBe(new Date(item!.timestamp).getTime());
    // The item comes after the message it shows.
    expect(item!.timestamp > recorded.timestamp).toBe(true);
  });

  it('stores no feed item for an answer without text, and still moves nothing else', async () => {
    const before = await rowsOf();
    await recordAnswer(database.db, answer({ item: null, charge: { ...answer().charge, units: 5 } }));
    const after = await rowsOf();
    expect(after.balance).toBe(before.balance - 5);
    expect(after.spice).toHaveLength(before.spice.length + 1);
    expect(after.items).toHaveLength(before.items.length);
    expect(after.agent.latestTimestamp).toEqual(before.agent.latestTimestamp);
  });

  it('stores nothing when the charge cannot be made', async () => {
    const before = await rowsOf();
    // No such installation: the ledger row's foreign key fails the whole statement.
    await expect(
      recordAnswer(database.db, answer({ charge: { ...answer().charge, installationId: 999_999 } })),
    ).rejects.toThrow();
    expect(await rowsOf()).toEqual(before);
  });

  describe('a final answer', () => {
    const setAgent = (values: Partial<typeof agents.$inferInsert>) =>
      database.db.update(agents).set(values).where(eq(agents.id, agentId));
    const statusOf = async () =>
      (await database.db.select({ status: agents.status }).from(agents).where(eq(agents.id, agentId)))[0]!
        .status;

    it('sets the agent idle in the same statement when nothing else is to be done', async () => {
      await setAgent({ status: 'open', interruptRequested: false });
      expect((await recordAnswer(database.db, answer({ mayEnd: true }))).ended).toBe(true);
      expect(await statusOf()).toBe('paused');
      // Not asked to: the run goes on (a tool call, a wait to go back to).
      await setAgent({ status: 'open' });
      expect((await recordAnswer(database.db, answer({ mayEnd: false }))).ended).toBe(false);
      expect(await statusOf()).toBe('open');
    });

    it('leaves the run going when an interrupt was asked for', async () => {
      await setAgent({ status: 'open', interruptRequested: true });
      expect((await recordAnswer(database.db, answer({ mayEnd: true }))).ended).toBe(false);
      expect(await statusOf()).toBe('open');
      await setAgent({ interruptRequested: false });
    });

    // Postgres only (two sessions at once), so registered for it alone. The Stop commits after the
    // statement's snapshot was taken and before its update reaches the row; the agent goes idle,
    // and no Stop is left behind to end its next run at once.
    if (kind === 'postgres')
      it('clears a Stop that commits while the answer ends the run', async () => {
        await setAgent({ status: 'open', interruptRequested: false });
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        let commit!: () => void;
        const committing = new Promise<void>((resolve) => (commit = resolve));
        const stopping = database.db.transaction(async (tx) => {
          await tx.update(agents).set({ interruptRequested: true }).where(eq(agents.id, agentId));
          locked();
          await committing;
        });
        await isLocked;
        const recording = recordAnswer(database.db, answer({ mayEnd: true }));
        await untilBlocked(database.db);
        commit();
        await stopping;
        expect((await recording).ended).toBe(true);
        const [row] = await database.db.select().from(agents).where(eq(agents.id, agentId));
        expect(row).toMatchObject({ status: 'paused', interruptRequested: false });
      });

    it("leaves an admin's Fail in place", async () => {
      await setAgent({ status: 'failed' });
      expect((await recordAnswer(database.db, answer({ mayEnd: true }))).ended).toBe(false);
      expect(await statusOf()).toBe('failed');
    });

    it('leaves the run going when a user message waits to be fed', async () => {
      await setAgent({ status: 'open' });
      const [agent] = await database.db.select().from(agents).where(eq(agents.id, agentId));
      await database.db.insert(conversationItems).values({
        agentId,
        timestamp: new Date().toISOString(),
        itemType: 'message',
        actionUuid: randomUUID(),
        actionType: 'website_request',
        userId: agent!.creatorId,
        data: { message: 'One more thing', username: 'ada' },
      });
      const recorded = await recordAnswer(database.db, answer({ mayEnd: true }));
      expect(recorded.ended).toBe(false);
      expect(await statusOf()).toBe('open');
      // The answer itself is stored and charged all the same.
      const spice = await database.db.select().from(spiceMessages).where(eq(spiceMessages.agentId, agentId));
      expect(spice.some((row) => row.timestamp === recorded.timestamp)).toBe(true);
    });
  });
});
