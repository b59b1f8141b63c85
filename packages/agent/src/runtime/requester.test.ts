import { agents, conversationItems, installations, users, userSettings } from '@tandem/db';
import { createTestDatabase, type TestDatabase } from '@tandem/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_AUTO_PR_INSTRUCTION, systemPrompt } from './prompt.js';
import { requesterOf } from './agent-row.js';

const repo = {
  id: 'r',
  fullName: 'acme/webapp',
  owner: 'acme',
  name: 'webapp',
  installationId: 7,
  defaultBranch: 'main',
  creditLimit: 1500,
};

describe('Automatic PR Creation in the agent', () => {
  let database: TestDatabase;
  let agentId: string;
  let ada: string;
  let bob: string;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    const { db } = database;
    await db.insert(installations).values({ id: 7, accountLogin: 'acme', accountType: 'Organization' });
    const rows = await db
      .insert(users)
      .values([
        { githubId: 1, username: 'ada' },
        { githubId: 2, username: 'bob' },
      ])
      .returning();
    ada = rows[0]!.id;
    bob = rows[1]!.id;
    const [agent] = await db
      .insert(agents)
      .values({ number: 1, installationId: 7, creatorId: ada, model: 'test', summarizationLimit: 1000 })
      .returning();
    agentId = agent!.id;
  });
  afterAll(() => database.destroy());

  it('is on for a user without settings, and off once the creator turns it off', async () => {
    const { db } = database;
    expect((await requesterOf(db, { id: agentId })).autoCreatePr).toBe(true);
    await db.insert(userSettings).values({ userId: ada, autoCreatePr: false });
    expect(await requesterOf(db, { id: agentId })).toEqual({
      username: 'ada',
      email: null,
      autoCreatePr: false,
    });
  });

  it('follows whoever wrote the last message', async () => {
    const { db } = database;
    await db.insert(conversationItems).values({
      agentId,
      timestamp: new Date().toISOString(),
      actionUuid: crypto.randomUUID(),
      itemType: 'message',
      userId: bob,
      data: { message: 'please continue', role: 'user', username: 'bob' },
    });
    expect(await requesterOf(db, { id: agentId })).toMatchObject({
      username: 'bob',
      autoCreatePr: true,
    });
  });

  it('tells the model not to open pull requests by itself when it is off', () => {
    const off = systemPrompt({ repo, branch: 'tandem-1', baseBranch: 'main', autoCreatePr: false });
    expect(off).toContain(NO_AUTO_PR_INSTRUCTION);
    expect(off).not.toContain('open a pull request when the work is ready');
    const on = systemPrompt({ repo, branch: 'tandem-1', baseBranch: 'main', autoCreatePr: true });
    expect(on).toContain('open a pull request when the work is ready for review');
    expect(on).not.toContain(NO_AUTO_PR_INSTRUCTION);
  });
});
