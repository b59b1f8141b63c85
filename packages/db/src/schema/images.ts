import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.js';
import { bytea } from './bytea.js';

/** Images attached to a message: served at /user_asset/event/{action_uuid}/{n} (n from 1). */
export const eventImages = pgTable(
  'event_images',
  {
    actionUuid: uuid('action_uuid').notNull(),
    n: integer('n').notNull(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    mimeType: text('mime_type').notNull(),
    name: text('name').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.actionUuid, t.n] }), index('event_images_agent_idx').on(t.agentId)],
);
