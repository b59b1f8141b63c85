import { agents, billingAccounts, creditTransactions, installations } from '@tandem/db';
import {
  createTestDatabase,
  seedAcmeRepository,
  testDatabaseKinds,
  type TestDatabase,
} from '@tandem/db/testing';
import { FREE_CREDITS_PER_INSTALLATION, LEDGER_UNITS_PER_CREDIT } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeAgentCall, grantFreeCredits, installationBalance } from './ledger.js';

const FREE_UNITS = FREE_CREDITS_PER_INSTALLATION * LEDGER_UNITS_PER_CREDIT;

describe.each(testDatabaseKinds())('the credit ledger on %s', (kind) => {
  let database: TestDatabase;
  let agentIds: string[];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const { userId, repositoryId } = await seedAcmeRepository(db);
    const rows = await db
      .insert(agents)
      .values(
        [1, 2, 3, 4].map((number) => ({
          number,
          repositoryId,
          installationId: 7,
          creatorId: userId,
          model: 'sonnet-4-5',
          summarizationLimit: 150_000,
        })),
      )
      .returning({ id: agents.id });
    agentIds = rows.map((r) => r.id);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('grants the free credits exactly once, even when asked concurrently', async () => {
    await Promise.all(Array.from({ length: 5 }, () => grantFreeCredits(database.db, 7)));
    await grantFreeCredits(database.db, 7);
    expect(await installationBalance(database.db, 7)).toBe(FREE_UNITS);
    const grants = await database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.kind, 'other'));
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({
      amount: FREE_UNITS,
      description: 'Free credits for new installations',
    });
  });

  it('loses no charge when many agents are charged at once', async () => {
    const charges = Array.from({ length: 40 }, (_, i) => ({ agentId: agentIds[i % 4]!, units: 100 + i }));
    const results = await Promise.all(
      charges.map((c) =>
        chargeAgentCall(database.db, { installationId: 7, ...c, curTokens: 1000, description: 'model call' }),
      ),
    );
    const total = charges.reduce((sum, c) => sum + c.units, 0);
    expect(await installationBalance(database.db, 7)).toBe(FREE_UNITS - total);
    // Every charge saw a distinct balance: no two read the same starting point.
    expect(new Set(results.map((r) => r.balance)).size).toBe(charges.length);
    const spent = await database.db.select({ id: agents.id, spent: agents.creditsSpent }).from(agents);
    for (const id of agentIds) {
      const mine = charges.filter((c) => c.agentId === id).reduce((sum, c) => sum + c.units, 0);
      expect(spent.find((s) => s.id === id)?.spent).toBe(mine);
    }
    const rows = await database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.kind, 'agent'));
    expect(rows).toHaveLength(charges.length);
    expect(rows.every((r) => r.agentId !== null && r.amount < 0)).toBe(true);
  });
  it("returns the balance and the agent's spending since its last message, and sets its tokens", async () => {
    const agentId = agentIds[0]!;
    const before = await installationBalance(database.db, 7);
    const [was] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    const result = await chargeAgentCall(database.db, {
      installationId: 7,
      agentId,
      units: 250,
      curTokens: 4321,
      description: 'one call',
    });
    expect(result).toEqual({
      balance: before - 250,
      spentSinceMessage: was!.spentSinceMessage + 250,
      autoFillDue: false,
    });
    const [now] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(now).toMatchObject({ curTokens: 4321, creditsSpent: was!.creditsSpent + 250 });
  });

  it('stores nothing for an installation that does not exist', async () => {
    const agentId = agentIds[1]!;
    const [was] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    const ledger = await database.db.select({ id: creditTransactions.id }).from(creditTransactions);
    await expect(
      chargeAgentCall(database.db, {
        installationId: 404,
        agentId,
        units: 5,
        curTokens: 1,
        description: 'x',
      }),
    ).rejects.toThrow();
    expect((await database.db.select({ id: creditTransactions.id }).from(creditTransactions)).length).toBe(
      ledger.length,
    );
    const [now] = await database.db.select().from(agents).where(eq(agents.id, agentId));
    expect(now).toEqual(was);
  });

  it('says an auto-fill may be due only when it is on and the charge leaves the balance below its threshold', async () => {
    const { db } = database;
    const agentId = agentIds[2]!;
    const charge = (units: number) =>
      chargeAgentCall(db, { installationId: 7, agentId, units, curTokens: 1, description: 'call' });
    const setBalance = (credits: number) =>
      db
        .update(installations)
        .set({ creditBalance: credits * LEDGER_UNITS_PER_CREDIT })
        .where(eq(installations.id, 7));
    const account = (values: Partial<typeof billingAccounts.$inferInsert>) =>
      db.update(billingAccounts).set(values).where(eq(billingAccounts.installationId, 7));

    // No billing account at all (never set up): nothing to tell billing.
    await setBalance(100);
    expect((await charge(1)).autoFillDue).toBe(false);

    await db.insert(billingAccounts).values({ installationId: 7, autoFillThreshold: 500 });
    // Off (the default), even far below the threshold.
    expect((await charge(1)).autoFillDue).toBe(false);

    await account({ autoFillEnabled: true });
    expect((await charge(1)).autoFillDue).toBe(true);
    // Still at or above the threshold after the charge: not due.
    await setBalance(600);
    expect((await charge(100 * LEDGER_UNITS_PER_CREDIT)).autoFillDue).toBe(false);
    // The charge that takes it below is.
    expect((await charge(1)).autoFillDue).toBe(true);
    // A failed auto-fill waits until the settings are saved again.
    await account({ autoFillError: 'Your card was declined.' });
    expect((await charge(1)).autoFillDue).toBe(false);
    // Turned off again: not due.
    await account({ autoFillError: null, autoFillEnabled: false });
    expect((await charge(1)).autoFillDue).toBe(false);
    // Another installation's auto-fill is not this one's.
    await db.insert(installations).values({ id: 8, accountLogin: 'globex', accountType: 'Organization' });
    await db
      .insert(billingAccounts)
      .values({ installationId: 8, autoFillEnabled: true, autoFillThreshold: 10 ** 6 });
    expect((await charge(1)).autoFillDue).toBe(false);
  });
});
