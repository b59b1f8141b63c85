import { agents, installations, repositories, webhookDeliveries } from '@tandem/db';
import { testDatabaseKinds } from '@tandem/db/testing';
import { createAgentResponseSchema, INSTALLATION_SUSPENDED_MESSAGE } from '@tandem/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliverWebhook } from '../testing/code-host-product.js';
import { useTestApp, type RecordingRunner, type TestUser } from '../testing/test-app.js';

/**
 * The owner suspends the App on the code host (the `installation` event's suspend and unsuspend
 * actions): the code host then gives it no tokens, so Tandem stops and refuses work there.
 */
describe.each(testDatabaseKinds())('a suspended installation on %s', (kind) => {
  const testApp = useTestApp(kind);
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  const account = { id: 9100, login: 'acme', type: 'Organization', avatar_url: null };
  const create = (user: TestUser, body: string) =>
    testApp().server.inject({
      method: 'POST',
      url: '/api/agents/create-agent/acme/webapp',
      headers: as(user),
      payload: { body },
    });

  it('stops its agents, refuses new work with a clear message, starts nothing, and recovers on unsuspend', async () => {
    const app = testApp();
    const carol = await app.signIn({
      username: 'carol',
      installations: [{ id: 61, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
    });
    const { agent_id } = createAgentResponseSchema.parse((await create(carol, 'Before')).json());
    await app.database.db.update(agents).set({ status: 'open' }).where(eq(agents.id, agent_id));

    const suspend = {
      action: 'suspend',
      installation: { id: 61, account },
      sender: { id: 1, login: 'carol' },
    };
    expect(await deliverWebhook(app, 'installation', 'd-suspend', suspend)).toBe(200);
    const [row] = await app.database.db.select().from(installations).where(eq(installations.id, 61));
    expect(row!.suspendedAt).toBeInstanceOf(Date);
    expect((app.runner as RecordingRunner).interrupted).toContain(agent_id);

    const refused = await create(carol, 'While suspended');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden', detail: INSTALLATION_SUSPENDED_MESSAGE });
    const message = await app.server.inject({
      method: 'POST',
      url: `/api/agent/message?trajectory_id=${agent_id}`,
      headers: as(carol),
      payload: { message: 'Hello?' },
    });
    expect(message.statusCode).toBe(403);
    expect(message.json()).toMatchObject({ detail: INSTALLATION_SUSPENDED_MESSAGE });

    // A tag is recorded and applied once, starting nothing.
    const [repo] = await app.database.db
      .select({ githubId: repositories.githubId })
      .from(repositories)
      .where(eq(repositories.fullName, 'acme/webapp'));
    const tagged = await deliverWebhook(app, 'issue_comment', 'd-suspended-tag', {
      action: 'created',
      installation: { id: 61 },
      repository: { id: repo!.githubId, full_name: 'acme/webapp' },
      issue: { number: 7, state: 'open', title: 'Broken build' },
      comment: { id: 71, body: '@tandem please fix', user: { id: 777, login: 'carol', type: 'User' } },
      sender: { id: 777, login: 'carol', type: 'User' },
    });
    expect(tagged).toBe(200);
    const [delivery] = await app.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryId, 'd-suspended-tag'));
    expect(delivery).toMatchObject({ attempts: 1, error: null });
    expect(await app.database.db.select().from(agents).where(eq(agents.installationId, 61))).toHaveLength(1);

    const unsuspend = { ...suspend, action: 'unsuspend' };
    expect(await deliverWebhook(app, 'installation', 'd-unsuspend', unsuspend)).toBe(200);
    const [after] = await app.database.db.select().from(installations).where(eq(installations.id, 61));
    expect(after!.suspendedAt).toBeNull();
    expect((await create(carol, 'After')).statusCode).toBe(200);
  });
});
