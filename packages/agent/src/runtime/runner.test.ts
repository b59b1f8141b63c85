import { agents, conversationItems } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeDeps } from './runtime-deps.js';
import { EmbeddedRunner } from './runner.js';
import { insertTestAgents } from './test-support.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A Stop (interrupt) that meets the end of a run must not outlive it: left set on an idle agent,
 * it ends the agent's next run at once, and the message that started that run goes unanswered
 * (docs/decisions.md "A Stop that meets the end of a run").
 */
describe.each(testDatabaseKinds())('EmbeddedRunner: a Stop at the end of a run, on %s', (kind) => {
  let database: TestDatabase;
  let runner: EmbeddedRunner;
  let agentId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    // No repository: a run of it ends at its start, idle, with an error item (what these tests need).
    [agentId] = (await insertTestAgents(database.db)) as [string];
    // Only the database and the logger are reached by what these tests run.
    runner = new EmbeddedRunner({ db: database.db, logger: quiet } as unknown as RuntimeDeps);
  });
  afterAll(async () => {
    await runner?.stop();
    await database?.destroy();
  });

  const setAgent = (values: Partial<typeof agents.$inferInsert>) =>
    database.db.update(agents).set(values).where(eq(agents.id, agentId));
  const rowOf = async () => (await database.db.select().from(agents).where(eq(agents.id, agentId)))[0]!;

  /** Asks for a Stop while a run holds the agent's slot, as one past its last look at the agent. */
  const interruptWithRunInSlot = async () => {
    const slots = (runner as unknown as { slots: Map<string, unknown> }).slots;
    slots.set(agentId, { controller: new AbortController(), again: false, done: Promise.resolve() });
    try {
      await runner.interrupt(agentId);
    } finally {
      slots.delete(agentId);
    }
  };

  it('clears a Stop that arrives after the run set the agent idle', async () => {
    await setAgent({ status: 'paused', interruptRequested: false });
    await interruptWithRunInSlot();
    expect(await rowOf()).toMatchObject({ status: 'paused', interruptRequested: false });
  });

  it('leaves the Stop to a run that is still going', async () => {
    await setAgent({ status: 'open', interruptRequested: false });
    await interruptWithRunInSlot();
    expect(await rowOf()).toMatchObject({ status: 'open', interruptRequested: true });
  });

  it('clears the Stop when its run ends idle', async () => {
    // Asked for while the run was going and never seen by it: the run's end leaves none behind.
    await setAgent({ status: 'pending', interruptRequested: true });
    runner.enqueue(agentId);
    await runner.idle(agentId);
    expect(await rowOf()).toMatchObject({ status: 'paused', interruptRequested: false });
    const items = await database.db
      .select()
      .from(conversationItems)
      .where(eq(conversationItems.agentId, agentId));
    expect(items.map((i) => i.actionType)).toContain('ErrorEvent');
  });
});
