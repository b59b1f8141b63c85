import { agents, creditTransactions } from '@tandem/db';
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
    expect(result).toEqual({ balance: before - 250, spentSinceMessage: was!.spentSinceMessage + 250 });
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
});
