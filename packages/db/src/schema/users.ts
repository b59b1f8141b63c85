import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/** A person who signed in with the code host. `github_id` is the code host's numeric user id. */
export const users = pgTable(
  'users',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    githubId: bigint('github_id', { mode: 'number' }).notNull(),
    username: text('username').notNull(),
    email: text('email'),
    avatarUrl: text('avatar_url'),
    /** Product admin (platform §6), not installation admin. */
    admin: boolean('admin').notNull().default(false),
    /** The code host's OAuth user token, AES-256-GCM encrypted (never returned by any API). */
    githubTokenEncrypted: text('github_token_encrypted'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_github_id_key').on(t.githubId),
    index('users_username_idx').on(t.username),
    // New users per day (the admin dashboard).
    index('users_created_idx').on(t.createdAt),
  ],
);

/** Per-user preferences (platform §3 User settings) and the server-side copy of the active installation. */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  notificationsEnabled: boolean('notifications_enabled').notNull().default(false),
  autoCreatePr: boolean('auto_create_pr').notNull().default(true),
  activeInstallationId: bigint('active_installation_id', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});
