import { webhookDeliveries } from '@tandem/db';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '@tandem/db/testing';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../testing/agent-harness.js';
import { recordDelivery } from './webhook-deliveries.js';
import type { handleWebhookEvent } from './webhook-events.js';
import { WebhookQueue, type WebhookQueueOptions } from './webhook-queue.js';

/**
 * The queue alone, on a real database: the handler is a stand-in that records what it applied and
 * fails when told to, so retries, give-ups, leases and sharing between workers can be seen.
 */
describe.each(testDatabaseKinds())('webhook queue on %s', (kind) => {
  let database: TestDatabase;
  const log = pino({ level: 'silent' });
  const queues: WebhookQueue[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.stop()));
    await database?.destroy();
  });

  function queue(handle: typeof handleWebhookEvent, options: WebhookQueueOptions = {}) {
    const deps = { db: database.db } as ConstructorParameters<typeof WebhookQueue>[0];
    const q = new WebhookQueue(deps, log, { retryDelaysMs: [30, 60], pollMs: 60_000, ...options, handle });
    queues.push(q);
    return q;
  }

  const store = (id: string, payload: unknown) =>
    recordDelivery(
      database.db,
      [id],
      {
        deliveryId: id,
        event: 'issues',
        action: 'opened',
        installationId: 1,
        requestId: crypto.randomUUID(),
      },
      JSON.stringify(payload),
    );

  const row = async (id: string) =>
    (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, id)))[0]!;

  it('applies a stored delivery once and forgets its payload', async () => {
    const applied: unknown[] = [];
    const q = queue(async (_deps, delivery, payload) => void applied.push({ id: delivery.id, payload }));
    q.start();
    await store('q-1', { n: 1 });
    q.kick();
    await q.idle();
    expect(applied).toEqual([{ id: 'q-1', payload: { n: 1 } }]);
    expect(await row('q-1')).toMatchObject({ attempts: 1, payload: null, nextAttemptAt: null, error: null });
    expect((await row('q-1')).processedAt).toBeInstanceOf(Date);
    q.kick();
    await q.idle();
    expect(applied).toHaveLength(1);
    await q.stop();
  });

  it('retries a failing delivery with back-off until it applies', async () => {
    let calls = 0;
    const q = queue(async () => {
      calls++;
      if (calls < 3) throw new Error(`model timed out (${calls})`);
    });
    q.start();
    await store('q-2', {});
    q.kick();
    await q.idle();
    expect(await row('q-2')).toMatchObject({ attempts: 1, error: 'model timed out (1)', processedAt: null });
    await until('the third attempt', async () => ((await row('q-2')).processedAt ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 20,
    });
    expect(calls).toBe(3);
    expect(await row('q-2')).toMatchObject({ attempts: 3, error: null, payload: null });
    await q.stop();
  });

  it('gives up after the last retry and keeps the payload and error for an operator', async () => {
    const q = queue(async () => {
      throw new Error('the code host is down');
    });
    q.start();
    await store('q-3', { keep: true });
    q.kick();
    await until(
      'the last attempt',
      async () => {
        const r = await row('q-3');
        return r.attempts === 3 && r.nextAttemptAt === null ? true : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 20 },
    );
    await q.idle();
    expect(await row('q-3')).toMatchObject({
      processedAt: null,
      error: 'the code host is down',
      payload: '{"keep":true}',
      lockedUntil: null,
    });
    await q.stop();
  });

  it('picks up at start what a stopped process left, but not what another worker holds', async () => {
    const applied: string[] = [];
    await store('q-4', {});
    await store('q-5', {});
    // Another live worker holds q-5; a dead one's lease on q-4 has run out.
    await database.db
      .update(webhookDeliveries)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(webhookDeliveries.deliveryId, 'q-4'));
    await database.db
      .update(webhookDeliveries)
      .set({ lockedUntil: new Date(Date.now() + 60_000) })
      .where(eq(webhookDeliveries.deliveryId, 'q-5'));
    const q = queue(async (_deps, delivery) => void applied.push(delivery.id));
    q.start();
    await q.idle();
    expect(applied).toEqual(['q-4']);
    await q.stop();
    await database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, 'q-5'));
  });

  it('lets two workers share the deliveries without applying any twice', async () => {
    const applied: string[] = [];
    const handle: typeof handleWebhookEvent = async (_deps, delivery) => {
      applied.push(delivery.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
    };
    const ids = Array.from({ length: 20 }, (_, i) => `q-share-${i}`);
    for (const id of ids) await store(id, {});
    const [a, b] = [queue(handle), queue(handle)];
    a!.start();
    b!.start();
    await Promise.all([a!.idle(), b!.idle()]);
    expect(applied.sort()).toEqual([...ids].sort());
    await Promise.all([a!.stop(), b!.stop()]);
  });
});
