import { agents, repositories } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { recordTransaction, FREE_CREDITS_DESCRIPTION } from '@tandem/agent';
import { creditsRemainingSchema, transactionListSchema } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

describe.each(testDatabaseKinds())('billing API on %s', (kind) => {
  const testApp = useTestApp(kind);
  let app: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let agentId: string;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const list = (user: TestUser, query: string) =>
    app.server.inject({ url: `/api/billing/transactions?${query}`, headers: as(user) });

  beforeAll(async () => {
    app = testApp();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 31, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    bob = await app.signIn({ username: 'bob', installations: [{ id: 31, name: 'acme', role: 'member' }] });
    eve = await app.signIn({ username: 'eve', installations: [{ id: 32, name: 'eve', role: 'admin' }] });
    const { db } = app.database;
    const [repo] = await db
      .select({ id: repositories.id })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    const [agent] = await db
      .insert(agents)
      .values({
        number: 1,
        repositoryId: repo!.id,
        installationId: 31,
        creatorId: ada.id,
        model: 'test',
        summarizationLimit: 1000,
      })
      .returning({ id: agents.id });
    agentId = agent!.id;
    // 30 agent charges of 1.5 credits each, a purchase and a gift, in order.
    for (let i = 0; i < 30; i++) {
      await recordTransaction(db, {
        installationId: 31,
        amount: -150,
        kind: 'agent',
        agentId,
        description: `Model call ${i + 1}`,
      });
    }
    await recordTransaction(db, {
      installationId: 31,
      amount: 100_000,
      kind: 'invoice',
      description: 'Purchase',
    });
    await recordTransaction(db, { installationId: 31, amount: 5_000, kind: 'other', description: 'Gift' });
  });

  it('gives any member the balance in ledger units', async () => {
    for (const user of [ada, bob]) {
      const res = await app.server.inject({
        url: '/api/billing/credits-remaining?installation_id=31',
        headers: as(user),
      });
      expect(res.statusCode).toBe(200);
      expect(creditsRemainingSchema.parse(res.json()).credits).toBe(300_000 - 30 * 150 + 100_000 + 5_000);
    }
  });

  it('pages the ledger newest first, 25 rows by default, with the total count', async () => {
    const res = await list(bob, 'installation_id=31');
    expect(res.statusCode).toBe(200);
    const body = transactionListSchema.parse(res.json());
    expect(body.count).toBe(33);
    expect(body.transactions).toHaveLength(25);
    expect(body.transactions[0]).toMatchObject({ description: 'Gift', amount: 5_000, kind: 'other' });
    expect(body.transactions[2]).toMatchObject({
      description: 'Model call 30',
      amount: -150,
      kind: 'agent',
      trajectory_id: agentId,
      repo_name: 'acme/webapp',
    });
    const last = transactionListSchema.parse((await list(bob, 'installation_id=31&page=2')).json());
    expect(last.transactions.map((t) => t.description)).toEqual([
      'Model call 7',
      'Model call 6',
      'Model call 5',
      'Model call 4',
      'Model call 3',
      'Model call 2',
      'Model call 1',
      FREE_CREDITS_DESCRIPTION,
    ]);
    // The oldest row is the installation's free credits, on the last page of 10.
    const small = transactionListSchema.parse(
      (await list(bob, 'installation_id=31&rows_per_page=10&page=4')).json(),
    );
    expect(small.count).toBe(33);
    expect(small.transactions.map((t) => t.description)).toEqual([
      'Model call 2',
      'Model call 1',
      FREE_CREDITS_DESCRIPTION,
    ]);
  });

  it('filters by kind', async () => {
    const only = async (query: string) =>
      transactionListSchema.parse((await list(ada, `installation_id=31&${query}`)).json());
    const invoices = await only('agents=false&other=false');
    expect(invoices.count).toBe(1);
    expect(invoices.transactions[0]?.description).toBe('Purchase');
    const other = await only('agents=false&invoices=false');
    expect(other.transactions.map((t) => t.description)).toEqual(['Gift', FREE_CREDITS_DESCRIPTION]);
    expect((await only('agents=true&invoices=false&other=false')).count).toBe(30);
    expect(await only('agents=false&invoices=false&other=false')).toEqual({ transactions: [], count: 0 });
  });

  it('hides other installations: 404 for non-members', async () => {
    expect((await list(eve, 'installation_id=31')).statusCode).toBe(404);
    const credits = await app.server.inject({
      url: '/api/billing/credits-remaining?installation_id=31',
      headers: as(eve),
    });
    expect(credits.statusCode).toBe(404);
    expect((await list(eve, 'installation_id=999')).statusCode).toBe(404);
    expect(
      (await app.server.inject({ url: '/api/billing/transactions?installation_id=31' })).statusCode,
    ).toBe(401);
  });

  it.each([
    '',
    'installation_id=abc',
    'installation_id=31&page=0',
    'installation_id=31&rows_per_page=101',
    'installation_id=31&agents=maybe',
    'installation_id=-1',
  ])('answers 422 for ?%s', async (query) => {
    const res = await list(ada, query);
    expect(res.statusCode).toBe(422);
    expect(Array.isArray(res.json().detail)).toBe(true);
  });

  it('answers 422 for credits without an installation id', async () => {
    const res = await app.server.inject({ url: '/api/billing/credits-remaining', headers: as(ada) });
    expect(res.statusCode).toBe(422);
  });
});
