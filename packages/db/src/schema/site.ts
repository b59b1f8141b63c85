import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/** Someone asked for a demo (platform §2 Request a Demo); admins follow up. */
export const demoRequests = pgTable(
  'demo_requests',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    email: text('email').notNull(),
    message: text('message').notNull().default(''),
    leadId: text('lead_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index('demo_requests_created_idx').on(t.createdAt)],
);

/** A visitor we track anonymously (lead_id in local storage), with how they arrived. */
export const leads = pgTable(
  'leads',
  {
    id: text('id').primaryKey(),
    data: jsonb('data').$type<Record<string, string>>().notNull().default({}),
    /** Set when the visitor signs in (GET /auth/github with lead_id) or visits while signed in. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  // A user's leads: the admin users table (utm_source) and lead info.
  (t) => [index('leads_user_idx').on(t.userId, t.createdAt)],
);

/** Batches of page_view / scroll / end events, as the browser sent them. */
export const sessionEvents = pgTable(
  'session_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    leadId: text('lead_id'),
    userId: uuid('user_id'),
    type: text('type').notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true, precision: 6 }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('session_events_lead_idx').on(t.leadId, t.timestamp),
    // A user's tracked sessions (GET /api/admin/user-sessions).
    index('session_events_user_idx').on(t.userId, t.timestamp),
  ],
);
