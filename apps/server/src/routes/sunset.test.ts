import { agents, repositories, webhookDeliveries } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import {
  clientConfigSchema,
  INSTALLATION_HEADER,
  SUNSET_NO_MESSAGES,
  SUNSET_NO_NEW_AGENTS,
  SUNSET_NO_PURCHASES,
  type Sunset,
} from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertAgent } from '../services/agents/insert-agent.js';
import { deliverWebhook } from '../testing/code-host-product.js';
import { useTestApp, type TestUser } from '../testing/test-app.js';

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const sunset = (lastDay: string): Sunset => ({
  last_day: lastDay,
  shutdown_day: day(30),
  credits_buyable: false,
  refund_note: 'Unused credits will be refunded.',
});

/** Sunset mode (DESIGN.md §9): texts before the last day, no new agents or messages after it. */
describe.each(testDatabaseKinds())('sunset mode on %s', (kind) => {
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

  describe('before the last day', () => {
    const testApp = useTestApp(kind, { sunset: sunset(day(1)) });

    it('tells the web app its days and still makes agents', async () => {
      const app = testApp();
      const config = clientConfigSchema.parse((await app.server.inject({ url: '/api/config' })).json());
      expect(config.sunset).toEqual(sunset(day(1)));
      const ada = await app.signIn({
        username: 'ada',
        installations: [{ id: 31, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
      });
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/agents/create-agent/acme/webapp',
        headers: as(ada),
        payload: { body: 'Still open' },
      });
      expect(res.statusCode).toBe(200);
      // Credits can no longer be bought (the operator left TANDEM_SUNSET_BUY_CREDITS off).
      const purchase = await app.server.inject({
        method: 'POST',
        url: '/api/billing/purchase-credits',
        headers: { ...as(ada), [INSTALLATION_HEADER]: '31' },
        payload: { credits: 1000, idempotency_key: 'sunset-purchase-1' },
      });
      expect(purchase.statusCode).toBe(403);
      expect(purchase.json()).toMatchObject({ detail: SUNSET_NO_PURCHASES });
    });
  });

  describe('after the last day', () => {
    const testApp = useTestApp(kind, { sunset: sunset(day(-1)) });

    it('refuses new agents and messages with the shutdown text, storing nothing', async () => {
      const app = testApp();
      const ada = await app.signIn({
        username: 'ada',
        installations: [{ id: 32, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
      });
      const created = await app.server.inject({
        method: 'POST',
        url: '/api/agents/create-agent/acme/webapp',
        headers: as(ada),
        payload: { body: 'Too late' },
      });
      expect(created.statusCode).toBe(403);
      expect(created.json()).toMatchObject({ code: 'forbidden', detail: SUNSET_NO_NEW_AGENTS });
      expect(await app.database.db.select().from(agents)).toEqual([]);

      // An agent from before the cut-off can be read but not messaged.
      const [repo] = await app.database.db
        .select()
        .from(repositories)
        .where(eq(repositories.fullName, 'acme/webapp'));
      const { agentId } = await insertAgent(app.database.db, {
        repositoryId: repo!.id,
        installationId: 32,
        creatorId: ada.id,
        model: { key: 'demo', defaultLimit: 100_000 },
        reviewModel: null,
        firstMessage: { actionType: 'website_request', data: { message: 'From before' } },
      });
      const sent = await app.server.inject({
        method: 'POST',
        url: `/api/agent/message?trajectory_id=${agentId}`,
        headers: as(ada),
        payload: { message: 'One more thing' },
      });
      expect(sent.statusCode).toBe(403);
      expect(sent.json()).toMatchObject({ code: 'forbidden', detail: SUNSET_NO_MESSAGES });
      const read = await app.server.inject({
        url: `/api/agent/conversation?trajectory_id=${agentId}`,
        headers: as(ada),
      });
      expect(read.statusCode).toBe(200);
    });

    it("refuses a product admin's script-generation agent too (the rule lives in createAgent)", async () => {
      const app = testApp();
      const root = await app.signIn({
        username: 'root',
        admin: true,
        installations: [{ id: 34, name: 'ops', role: 'admin', repos: ['ops/tools'] }],
      });
      const res = await app.server.inject({
        method: 'POST',
        url: '/api/repositories/ops/tools/generate-scripts',
        headers: as(root),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', detail: SUNSET_NO_NEW_AGENTS });
      expect(await app.database.db.select().from(agents).where(eq(agents.installationId, 34))).toEqual([]);
    });

    it('records a tag on the code host without starting anything', async () => {
      const app = testApp();
      await app.signIn({
        username: 'dora',
        installations: [{ id: 33, name: 'dora', role: 'admin', repos: ['dora/app'] }],
      });
      const [repo] = await app.database.db
        .select({ githubId: repositories.githubId })
        .from(repositories)
        .where(eq(repositories.fullName, 'dora/app'));
      const status = await deliverWebhook(app, 'issue_comment', 'd-sunset', {
        action: 'created',
        installation: { id: 33 },
        repository: { id: repo!.githubId, full_name: 'dora/app' },
        issue: { number: 4, state: 'open', title: 'Flaky test' },
        comment: { id: 88, body: '@tandem please fix', user: { id: 777, login: 'dora', type: 'User' } },
        sender: { id: 777, login: 'dora', type: 'User' },
      });
      expect(status).toBe(200);
      // Applied once, without asking the code host anything (this test app has none to ask).
      const [row] = await app.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.deliveryId, 'd-sunset'));
      expect(row).toMatchObject({ attempts: 1, error: null });
      expect(row!.processedAt).toBeInstanceOf(Date);
      expect(await app.database.db.select().from(agents).where(eq(agents.installationId, 33))).toEqual([]);
    });
  });
});
