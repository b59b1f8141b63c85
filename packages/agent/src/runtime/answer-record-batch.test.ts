import {
  agents,
  billingAccounts,
  conversationItems,
  creditTransactions,
  installations,
  spiceMessages,
} from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { LEDGER_UNITS_PER_CREDIT } from '@tandem/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantFreeCredits, installationBalance } from '../credits/ledger.js';
import { recordAnswer, type AnswerRecord } from './answer-record.js';
import { insertTestAgents } from './test-support.js';

const stats = { input_tokens: 10, cached_tokens: 0, output_tokens: 5, reasoning_tokens: 0, time: 1, cost: 0 };
const U = LEDGER_UNITS_PER_CREDIT;

/**
 * Answers that arrive together are recorded as one statement (issue 15): each charged, stored and
 * ended exactly as its own statement would have done it, and one answer's failure fails its
 * caller only.
 */
describe.each(testDatabaseKinds())('recordAnswer for answers that arrive together on %s', (kind) => {
  let database: TestDatabase;
  let ids: string[];
  const statements: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { logQuery: (query) => statements.push(query) });
    const { db } = database;
    ids = await insertTestAgents(db, 6);
    // Agents 4 and 5 belong to a second installation, which has auto-fill on below 2999 credits.
    await db.insert(installations).values({ id: 8, accountLogin: 'umbrella', accountType: 'Organization' });
    await db
      .update(agents)
      .set({ installationId: 8 })
      .where(inArray(agents.id, [ids[4]!, ids[5]!]));
    await grantFreeCredits(db, 7);
    await grantFreeCredits(db, 8);
    await db
      .insert(billingAccounts)
      .values({ installationId: 8, autoFillEnabled: true, autoFillThreshold: 2999 });
  });
  afterAll(() => database.destroy());

  const records = () => statements.filter((q) => /insert into "credit_transactions"/.test(q));
  const answer = (
    agentId: string,
    installationId: number,
    units: number,
    text: string | null,
    mayEnd = false,
  ) =>
    ({
      charge: {
        installationId,
        agentId,
        units,
        curTokens: units + 1,
        description: `Model call of ${units} units`,
      },
      message: { role: 'assistant', content: [{ type: 'text', text: text ?? '' }] },
      stats,
      item: text
        ? {
            itemType: 'message',
            actionUuid: crypto.randomUUID(),
            data: { message: text, username: 'tandem', role: 'assistant' },
          }
        : null,
      mayEnd,
    }) satisfies AnswerRecord;
  const agentRow = async (id: string) =>
    (await database.db.select().from(agents).where(eq(agents.id, id)))[0]!;

  it('charges, stores and ends each answer as its own statement would', async () => {
    const { db } = database;
    await db.update(agents).set({ status: 'open' }).where(inArray(agents.id, ids));
    // Agent 2 was asked to stop, and agent 3 was failed by an admin: neither ends.
    await db.update(agents).set({ interruptRequested: true }).where(eq(agents.id, ids[2]!));
    await db.update(agents).set({ status: 'failed' }).where(eq(agents.id, ids[3]!));
    const before = { 7: await installationBalance(db, 7), 8: await installationBalance(db, 8) };
    // Text a JSON splice could get wrong: quotes, backslashes, a closing brace, non-ASCII, NUL.
    const texts = ['first', 'a "quoted" \\ back}slash ]', null, 'ünïcødé ☃ 𝄞', 'nul \u0000 here', 'last'];
    const sent = [
      answer(ids[0]!, 7, 100, texts[0]!),
      answer(ids[1]!, 7, 200, texts[1]!, true),
      answer(ids[2]!, 7, 300, texts[2]!, true),
      answer(ids[3]!, 7, 400, texts[3]!, true),
      answer(ids[4]!, 8, U / 2, texts[4]!),
      answer(ids[5]!, 8, U, texts[5]!, true),
    ];
    statements.length = 0;
    const recorded = await Promise.all(sent.map((a) => recordAnswer(db, a)));
    // The first went at once; the five queued behind it went as one.
    expect(records()).toHaveLength(2);

    // Each caller's balance is the one after its own charge, in the order they came.
    expect(recorded.map((r) => r.balance)).toEqual([
      before[7] - 100,
      before[7] - 300,
      before[7] - 600,
      before[7] - 1000,
      before[8] - U / 2,
      before[8] - U - U / 2,
    ]);
    expect(await installationBalance(db, 7)).toBe(before[7] - 1000);
    expect(await installationBalance(db, 8)).toBe(before[8] - U - U / 2);
    // Only the charge that took installation 8 below its threshold calls for an auto-fill.
    expect(recorded.map((r) => r.autoFillDue)).toEqual([false, false, false, false, false, true]);
    expect(recorded.map((r) => r.ended)).toEqual([false, true, false, false, false, true]);

    // One ledger row per answer, in the order they came.
    const ledger = await db
      .select()
      .from(creditTransactions)
      .where(inArray(creditTransactions.agentId, ids))
      .orderBy(asc(creditTransactions.seq));
    expect(ledger.map((row) => [row.agentId, row.amount, row.kind, row.description])).toEqual(
      sent.map((a) => [a.charge.agentId, -a.charge.units, 'agent', a.charge.description]),
    );

    for (const [n, id] of ids.entries()) {
      const agent = await agentRow(id);
      expect(agent).toMatchObject({
        creditsSpent: sent[n]!.charge.units,
        spentSinceMessage: sent[n]!.charge.units,
        curTokens: sent[n]!.charge.curTokens,
        status: ['open', 'paused', 'open', 'failed', 'open', 'paused'][n],
        // An interrupt asked for is left for the run to act on.
        interruptRequested: n === 2,
      });
      expect(recorded[n]!.spentSinceMessage).toBe(sent[n]!.charge.units);
      const [spice] = await db.select().from(spiceMessages).where(eq(spiceMessages.agentId, id));
      expect(spice).toMatchObject({
        role: 'assistant',
        timestamp: recorded[n]!.timestamp,
        responseStats: stats,
      });
      // What the caller was given is what a read gives back.
      expect(spice!.content).toEqual(JSON.parse(recorded[n]!.json));
      const items = await db.select().from(conversationItems).where(eq(conversationItems.agentId, id));
      if (texts[n] === null) {
        // No text, no feed item, and the feed's poll has nothing new.
        expect(items).toEqual([]);
        expect(agent.latestTimestamp).toBeNull();
        continue;
      }
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ itemType: 'message', actionUuid: sent[n]!.item!.actionUuid });
      expect(items[0]!.data.message).toBe(texts[n]!.replace('\u0000', ''));
      // The feed's poll moves on to the item, which comes after the message it shows.
      expect(new Date(agent.latestTimestamp!).getTime()).toBe(new Date(items[0]!.timestamp).getTime());
      expect(items[0]!.timestamp > recorded[n]!.timestamp).toBe(true);
    }
    // NUL, which jsonb refuses, was made storable before the insert, as for every spice row.
    expect(recorded[4]!.json).not.toContain('\\u0000');
  });

  it('fails only the caller whose answer cannot be recorded, and stores nothing of it', async () => {
    const { db } = database;
    const gone = crypto.randomUUID();
    const spent = await Promise.all(ids.slice(0, 3).map(async (id) => (await agentRow(id)).creditsSpent));
    const before = await installationBalance(db, 7);
    const ledgerBefore = (await db.select().from(creditTransactions)).length;
    statements.length = 0;
    const results = await Promise.allSettled([
      recordAnswer(db, answer(ids[0]!, 7, 10, 'again')),
      recordAnswer(db, answer(ids[1]!, 7, 10, 'again')),
      // No such agent, and no such installation: the ledger row's foreign keys refuse both.
      recordAnswer(db, answer(gone, 7, 10, 'again')),
      recordAnswer(db, answer(ids[2]!, 999_999, 10, 'again')),
      recordAnswer(db, answer(ids[2]!, 7, 10, 'again')),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    expect(await installationBalance(db, 7)).toBe(before - 30);
    expect((await db.select().from(creditTransactions)).length).toBe(ledgerBefore + 3);
    for (const [n, id] of ids.slice(0, 3).entries())
      expect((await agentRow(id)).creditsSpent).toBe(spent[n]! + 10);
    const spice = await db.select().from(spiceMessages).where(eq(spiceMessages.agentId, ids[2]!));
    expect(spice).toHaveLength(2);
  });

  it('records two answers of one agent that arrive together, each in full', async () => {
    const { db } = database;
    const spent = (await agentRow(ids[0]!)).creditsSpent;
    const before = await installationBalance(db, 7);
    // A statement updates a row once: the two go as statements of their own.
    await Promise.all([
      recordAnswer(db, answer(ids[1]!, 7, 1, 'one')),
      recordAnswer(db, answer(ids[0]!, 7, 5, 'two')),
      recordAnswer(db, answer(ids[0]!, 7, 7, 'three')),
      recordAnswer(db, answer(ids[2]!, 7, 11, 'four')),
    ]);
    expect(await installationBalance(db, 7)).toBe(before - 24);
    expect((await agentRow(ids[0]!)).creditsSpent).toBe(spent + 12);
    const items = await db.select().from(conversationItems).where(eq(conversationItems.agentId, ids[0]!));
    expect(items.map((item) => item.data.message)).toEqual(expect.arrayContaining(['two', 'three']));
  });
});
