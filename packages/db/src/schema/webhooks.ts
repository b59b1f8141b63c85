import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every code-host webhook delivery we accepted, keyed by X-GitHub-Delivery: a redelivery of the
 * same id is acknowledged without being processed twice. The row is also the delivery's job: its
 * checked payload waits here until the webhook queue has applied it, so a restart or a failing
 * handler loses nothing (platform §1 events are answered at once, processed with retries).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    deliveryId: text('delivery_id').primaryKey(),
    event: text('event').notNull(),
    action: text('action'),
    installationId: bigint('installation_id', { mode: 'number' }),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true, precision: 6 }),
    /** The last failure's message; kept after the last attempt so an operator can see why. */
    error: text('error'),
    /** Correlates our log lines with the delivery. */
    requestId: uuid('request_id'),
    /**
     * What the handlers read, as JSON text (not jsonb, which refuses the \u0000 a hostile body may
     * carry); null on marker rows (a body's digest), for events without a handler and once applied.
     */
    payload: text('payload'),
    attempts: integer('attempts').notNull().default(0),
    /** When the queue may try it (again); null when it is not waiting (done, or out of attempts). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 6 }),
    /** A worker holds it until then; a worker that died mid-way lets it go when this passes. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 6 }),
  },
  (t) => [
    index('webhook_deliveries_received_idx').on(t.receivedAt),
    index('webhook_deliveries_waiting_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.nextAttemptAt} is not null`),
  ],
);
