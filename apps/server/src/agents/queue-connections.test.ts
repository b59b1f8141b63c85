import pg from 'pg';
import { createAgentResponseSchema, statusCountsSchema } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueRunner } from '@tandem/agent';
import { writeScriptFile } from '../testing/agent-harness.js';
import { signInAda } from '../testing/scripted-agents.js';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app.js';
import { QUEUE_APPLICATION_NAME, QUEUE_POOL_MAX } from './runtime-setup.js';

/**
 * Postgres only (graphile-worker). A burst of agents at a high concurrency must not take a queue
 * connection per worker slot: at TANDEM_AGENT_CONCURRENCY=100 that exhausted Postgres' default
 * max_connections, and the creates themselves failed with 500 (issue 15, bench/README.md).
 */
const AGENTS = 20;
const scriptFile = writeScriptFile([
  { match: 'quick:', steps: [{ tool_calls: [{ name: 'task_complete', args: { summary: 'Done.' } }] }] },
]);

describe.runIf(process.env.TEST_DATABASE_URL)('the agent queue on Postgres', () => {
  let app: TestApp;
  let ada: TestUser;
  let watcher: pg.Client;

  beforeAll(async () => {
    app = await createTestApp('postgres', {
      codeHost: true,
      agents: { models: { scriptedModelFile: scriptFile }, concurrency: AGENTS },
    });
    await app.server.ready();
    ada = await signInAda(app);
    watcher = new pg.Client({ connectionString: app.database.url! });
    await watcher.connect();
  });

  afterAll(async () => {
    await watcher?.end();
    await app?.close();
  });

  const queueConnections = async () => {
    const { rows } = await watcher.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [QUEUE_APPLICATION_NAME],
    );
    return rows[0]!.n;
  };

  it(`runs ${AGENTS} agents at concurrency ${AGENTS} on at most ${QUEUE_POOL_MAX} queue connections`, async () => {
    const headers = { authorization: `Bearer ${ada.token}` };
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        most = Math.max(most, await queueConnections());
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const created = await Promise.all(
      Array.from({ length: AGENTS }, (_, i) =>
        app.server.inject({
          method: 'POST',
          url: '/api/agents/create-agent/acme/webapp',
          headers,
          payload: { body: `quick: task ${i}`, model: 'scripted' },
        }),
      ),
    );
    try {
      expect(created.map((res) => res.statusCode)).toEqual(created.map(() => 200));
      for (const res of created) createAgentResponseSchema.parse(res.json());
      await (app.runner as QueueRunner).idle(undefined, 120_000);
      const counts = statusCountsSchema.parse(
        (await app.server.inject({ url: '/api/agents/status-counts', headers })).json(),
      );
      expect(counts.running_agents).toEqual([]);
    } finally {
      watching = false;
      await watch;
    }
    // The burst did reach the queue (its LISTEN connection at least), and stayed under the cap.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(QUEUE_POOL_MAX);
  });
});
