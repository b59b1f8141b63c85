import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.js';
import { users } from './users.js';

/**
 * The preview subdomain registry (workspace §4): which agent port a preview subdomain shows. An
 * entry lapses 70 minutes after its last use; a lapsed subdomain may be taken by another preview.
 */
export const previewSubdomains = pgTable(
  'preview_subdomains',
  {
    subdomain: text('subdomain').primaryKey(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    port: integer('port').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    lastActiveAt: timestamp('last_active_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index('preview_subdomains_agent_port_idx').on(t.agentId, t.port)],
);
