import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

export const accountType = pgEnum('account_type', ['User', 'Organization']);
export const membershipRole = pgEnum('membership_role', ['admin', 'member']);

/** An installation of the code-host app on an account or organisation; it owns the credits. */
export const installations = pgTable('installations', {
  /** The code host's installation id (what X-Installation-ID and the API carry). */
  id: bigint('id', { mode: 'number' }).primaryKey(),
  accountLogin: text('account_login').notNull(),
  accountType: accountType('account_type').notNull(),
  accountGithubId: bigint('account_github_id', { mode: 'number' }),
  avatarUrl: text('avatar_url'),
  suspendedAt: timestamp('suspended_at', { withTimezone: true, precision: 6 }),
  bannedAt: timestamp('banned_at', { withTimezone: true, precision: 6 }),
  /** Removed on the code host: kept for the ledger, hidden from users. */
  deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 6 }),
  /** Ledger units (hundredths of a cent); changed only together with a credit_transactions row. */
  creditBalance: bigint('credit_balance', { mode: 'number' }).notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});

/** Who belongs to an installation and as what (platform §3; code-host 'write' maps to member with write). */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    installationId: bigint('installation_id', { mode: 'number' })
      .notNull()
      .references(() => installations.id, { onDelete: 'cascade' }),
    role: membershipRole('role').notNull().default('member'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.installationId] }),
    index('memberships_installation_idx').on(t.installationId),
  ],
);

/**
 * What an installation admin decided in Tandem's users table (platform §3: add user, change role,
 * remove). Sign-in mirrors memberships from the code host; these decisions are applied on top, so
 * an added user keeps access and a removed one stays removed after their next sign-in. `role` null
 * means removed.
 */
export const membershipOverrides = pgTable(
  'membership_overrides',
  {
    installationId: bigint('installation_id', { mode: 'number' })
      .notNull()
      .references(() => installations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: membershipRole('role'),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.installationId, t.userId] }),
    index('membership_overrides_user_idx').on(t.userId),
  ],
);

/** A repository the app can reach through an installation, with its Tandem settings (platform §3). */
export const repositories = pgTable(
  'repositories',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    githubId: bigint('github_id', { mode: 'number' }).notNull(),
    installationId: bigint('installation_id', { mode: 'number' })
      .notNull()
      .references(() => installations.id, { onDelete: 'cascade' }),
    /** "owner/name", case preserved as the code host reports it. */
    fullName: text('full_name').notNull(),
    private: boolean('private').notNull().default(true),
    defaultBranch: text('default_branch').notNull().default('main'),
    defaultModel: text('default_model'),
    defaultReviewModel: text('default_review_model'),
    alwaysAsk: boolean('always_ask').notNull().default(false),
    alwaysReview: boolean('always_review').notNull().default(true),
    /** Per-agent budget since the last user message, in credits (1 credit = 1 cent). */
    creditLimit: integer('credit_limit').notNull().default(1500),
    agentsPublic: boolean('agents_public').notNull().default(false),
    autoFix: boolean('auto_fix').notNull().default(true),
    removedAt: timestamp('removed_at', { withTimezone: true, precision: 6 }),
    /**
     * The highest agent number taken in this repository (branch tandem-{n}). Creating an agent
     * bumps it in the same statement that inserts the agent: the UPDATE's row lock orders creates
     * that run at once on Postgres, with no transaction around them (issue 15).
     */
    lastAgentNumber: integer('last_agent_number').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('repositories_github_id_key').on(t.githubId),
    uniqueIndex('repositories_full_name_lower_key').on(sql`lower(${t.fullName})`),
    index('repositories_installation_idx').on(t.installationId),
  ],
);
