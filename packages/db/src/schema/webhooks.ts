import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every code-host webhook delivery we accepted, keyed by X-GitHub-Delivery: a redelivery of the
 * same id is acknowledged without being processed twice.
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
    error: text('error'),
    /** Correlates our log lines with the delivery. */
    requestId: uuid('request_id'),
  },
  (t) => [index('webhook_deliveries_received_idx').on(t.receivedAt)],
);
