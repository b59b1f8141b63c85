import { and, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { webhookDeliveries } from '@tandem/db';
import type { GitHubEventDeps } from './github-events/handle-thread-event.js';
import { handleWebhookEvent } from './webhook-events.js';

export interface WebhookQueueOptions {
  /** Waits before each retry; the delivery is given up (and kept, with its error) after the last. */
  retryDelaysMs?: number[];
  /** How often waiting retries (and deliveries another instance dropped) are looked for. */
  pollMs?: number;
  /** How long one worker holds a delivery before another may take it over. */
  leaseMs?: number;
  /** Applies one delivery; the product's handlers unless a test of the queue alone stands in. */
  handle?: typeof handleWebhookEvent;
}

/** Back-off between attempts: seconds first (a blip), then minutes, then hours (an outage). */
export const WEBHOOK_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];

interface Claimed {
  deliveryId: string;
  event: string;
  payload: string;
  attempts: number;
}

/**
 * Applies stored webhook deliveries after their request was answered: the delivery row is the job
 * (payload, attempts, next attempt, lease), claimed with FOR UPDATE SKIP LOCKED so any number of
 * server processes on one Postgres share the work and each delivery is applied by one of them.
 * A failed delivery is retried with back-off; a process that dies mid-way loses its lease, and
 * deliveries still waiting at start-up are picked up. One worker per process applies deliveries in
 * the order they arrived.
 */
export class WebhookQueue {
  private readonly delays: number[];
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly handle: typeof handleWebhookEvent;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly deps: Omit<GitHubEventDeps, 'log'>,
    private readonly log: FastifyBaseLogger,
    options: WebhookQueueOptions = {},
  ) {
    this.delays = options.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
    this.pollMs = options.pollMs ?? 15_000;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.handle = options.handle ?? handleWebhookEvent;
  }

  /** Starts looking for work: now (deliveries left by a restart) and every pollMs. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Stops taking work and waits for the delivery in hand. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.draining;
  }

  /** A delivery was stored: apply it soon, without making its request wait. */
  kick(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves once nothing this process started is in progress (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    try {
      for (let job = await this.claim(); job && !this.stopped; job = await this.claim()) {
        await this.apply(job);
      }
    } catch (error) {
      // The database itself failed (not a handler): the next kick or poll tries again.
      this.log.error({ err: error }, 'webhook queue could not read its deliveries');
    }
  }

  private async claim(): Promise<Claimed | undefined> {
    const { db } = this.deps;
    const t = webhookDeliveries;
    const now = new Date();
    const next = db
      .select({ id: t.deliveryId })
      .from(t)
      .where(and(lte(t.nextAttemptAt, now), or(isNull(t.lockedUntil), lt(t.lockedUntil, now))))
      .orderBy(t.receivedAt)
      .limit(1)
      .for('update', { skipLocked: true });
    const [job] = await db
      .update(t)
      .set({ lockedUntil: new Date(now.getTime() + this.leaseMs), attempts: sql`${t.attempts} + 1` })
      .where(inArray(t.deliveryId, next))
      .returning({ deliveryId: t.deliveryId, event: t.event, payload: t.payload, attempts: t.attempts });
    return job?.payload == null ? undefined : { ...job, payload: job.payload };
  }

  private async apply(job: Claimed): Promise<void> {
    const log = this.log.child({ deliveryId: job.deliveryId, event: job.event, attempt: job.attempts });
    try {
      await this.handle(
        this.deps,
        { event: job.event, id: job.deliveryId, attempt: job.attempts },
        JSON.parse(job.payload),
        log,
      );
    } catch (error) {
      const last = job.attempts > this.delays.length;
      const message = error instanceof Error ? error.message : String(error);
      if ((error as { expected?: unknown }).expected === true && !last)
        log.info({ reason: message }, 'webhook delivery deferred');
      else log.error({ err: error, givenUp: last }, 'webhook delivery failed');
      const delay = this.delays[job.attempts - 1];
      const retryAt = last || delay === undefined ? null : new Date(Date.now() + delay);
      await this.deps.db
        .update(webhookDeliveries)
        .set({ error: message.slice(0, 2000), lockedUntil: null, nextAttemptAt: retryAt })
        .where(eq(webhookDeliveries.deliveryId, job.deliveryId));
      // This process retries on time; the poll is the fallback for other processes and restarts.
      if (delay !== undefined && !last) setTimeout(() => this.kick(), delay + 5).unref();
      return;
    }
    await this.deps.db
      .update(webhookDeliveries)
      .set({ processedAt: new Date(), payload: null, error: null, lockedUntil: null, nextAttemptAt: null })
      .where(eq(webhookDeliveries.deliveryId, job.deliveryId));
  }
}
