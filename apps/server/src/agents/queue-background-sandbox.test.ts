import { prepareSandbox } from '@tandem/agent';
import { agents } from '@tandem/db';
import { createAgentResponseSchema } from '@tandem/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until, writeScriptFile } from '../testing/agent-harness.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';

const scriptFile = writeScriptFile([{ match: 'hello:', steps: [{ text: 'Hello there.' }] }]);

/**
 * Postgres only (graphile-worker): a run that ends while its sandbox is still being prepared keeps
 * the agent's queue taken until the preparation is over, so no process sharing the machine's
 * workspaces starts the agent's next run into a clone that is still being made.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a queued run whose sandbox outlives it', () => {
  let app: TestApp;
  let ada: TestUser;
  let release = () => {};
  let gate: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    gate = new Promise((resolve) => (release = resolve));
    app = await createTestApp('postgres', {
      codeHost: true,
      agents: {
        models: { scriptedModelFile: scriptFile },
        prepareSandbox: async (...args) => {
          await gate;
          return prepareSandbox(...args);
        },
      },
    });
    await app.server.ready();
    ada = await app.signIn({
      username: 'ada',
      installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
  });

  afterAll(async () => {
    release();
    await app?.close();
  });

  /** The agent's jobs on the queue (graphile-worker's view; a taken job stays until it ends). */
  const queued = async (agentId: string) => {
    const rows = await app.database.db.execute<{ n: string }>(
      sql`select count(*)::text as n from graphile_worker.jobs where queue_name = ${`agent:${agentId}`}`,
    );
    const list = Array.isArray(rows) ? rows : (rows as { rows: { n: string }[] }).rows;
    return Number(list[0]!.n);
  };

  it('keeps the job until the sandbox is ready, after the agent went idle', async () => {
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: { authorization: `Bearer ${ada.token}` },
      payload: { body: 'hello: say hi', model: 'scripted' },
    });
    expect(res.statusCode).toBe(200);
    const agentId = createAgentResponseSchema.parse(res.json()).agent_id;
    const status = async () =>
      (await app.database.db.select({ status: agents.status }).from(agents).where(eq(agents.id, agentId)))[0]!
        .status;
    await until('the run ended without a tool', async () =>
      (await status()) === 'paused' ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(await queued(agentId)).toBe(1);

    release();
    await until('the job is done once the sandbox is ready', async () =>
      (await queued(agentId)) === 0 ? true : undefined,
    );
  });
});
