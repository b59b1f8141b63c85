import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { repositories } from './installations.js';

/**
 * Environment variables agents get in a repository's sandbox (platform §3 Secret). Only the
 * SecretBox-sealed value is stored, so a database dump alone does not reveal them.
 */
export const repositorySecrets = pgTable(
  'repository_secrets',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    repositoryId: uuid('repository_id')
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** Upper-cased before it is stored, so lookups compare exactly. */
    key: text('key').notNull(),
    sealedValue: text('sealed_value').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  // Also serves lookups by repository (its leading column), so no separate index.
  (t) => [uniqueIndex('repository_secrets_repository_key_key').on(t.repositoryId, t.key)],
);
