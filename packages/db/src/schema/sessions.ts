import { sql } from 'drizzle-orm';
import { index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const sessionKind = pgEnum('session_kind', ['web', 'cli']);

/**
 * A signed-in session. The signed token carries this row's id, so logging out (or an admin
 * revoking) takes effect at once even though the token itself is still validly signed.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: sessionKind('kind').notNull().default('web'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 6 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 6 }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);
