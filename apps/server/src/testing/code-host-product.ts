import type { AddressInfo } from 'node:net';
import { sign } from '@octokit/webhooks-methods';
import type { AgentRunner } from '@tandem/agent';
import { agents, repositories, users } from '@tandem/db';
import { eq, inArray } from 'drizzle-orm';
import { until } from './agent-harness.js';
import { TEST_WEBHOOK_SECRET, type TestApp } from './test-app.js';

/** Posts a signed webhook delivery to the app, as GitHub would, and waits until it is applied. */
export async function deliverWebhook(
  app: TestApp,
  event: string,
  deliveryId: string,
  payload: unknown,
): Promise<number> {
  const body = JSON.stringify(payload);
  const res = await app.server.inject({
    method: 'POST',
    url: '/api/github/webhooks',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': deliveryId,
      'x-hub-signature-256': await sign(TEST_WEBHOOK_SECRET, body),
    },
    payload: body,
  });
  await app.webhooks.idle();
  return res.statusCode;
}

/**
 * Makes the app the local code host's product: the app listens, the code host sends its webhooks
 * there, and the test's rows carry the code host's own ids (as its sign-in and installation
 * webhooks would have stored them).
 */
export async function connectCodeHost(
  app: TestApp,
  ids: { users: Record<string, number>; repositories: Record<string, number>; defaultModel?: string },
): Promise<void> {
  const { db } = app.database;
  for (const [username, githubId] of Object.entries(ids.users))
    await db.update(users).set({ githubId }).where(eq(users.username, username));
  for (const [fullName, githubId] of Object.entries(ids.repositories))
    await db
      .update(repositories)
      .set({ githubId, ...(ids.defaultModel ? { defaultModel: ids.defaultModel } : {}) })
      .where(eq(repositories.fullName, fullName));
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.server.address() as AddressInfo;
  app.codeHost!.connectProduct({ webhookUrl: `http://127.0.0.1:${port}/api/github/webhooks` });
}

/**
 * Every webhook delivered and every agent run it caused finished: sent, applied by the product's
 * queue, then the runs they started (whose own pushes and comments are sent again: the second
 * round). The Postgres runner queues a run asynchronously, so the agents' statuses say when
 * their runs are over.
 */
export async function settle(app: TestApp): Promise<void> {
  for (let round = 0; round < 2; round++) {
    await app.codeHost!.webhooksIdle();
    await app.webhooks.idle();
    await (app.runner as AgentRunner).idle();
    await until(
      'agents to stop working',
      async () => {
        const busy = await app.database.db
          .select({ id: agents.id })
          .from(agents)
          .where(inArray(agents.status, ['pending', 'open']));
        return busy.length ? undefined : true;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
  }
}
