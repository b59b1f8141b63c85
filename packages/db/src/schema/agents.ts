import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { isoTimestamp } from './iso-timestamp.js';
import { installations, repositories } from './installations.js';
import { users } from './users.js';

/** An agent (workspace §3 Agent metadata); see docs/data-model.md. */
export const agents = pgTable(
  'agents',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Per-repository counter: the agent's branch is tandem-{number} when that name is free. */
    number: integer('number').notNull(),
    title: text('title').notNull().default('New Chat'),
    status: text('status').notNull().default('pending'),
    repositoryId: uuid('repository_id').references(() => repositories.id, { onDelete: 'cascade' }),
    installationId: bigint('installation_id', { mode: 'number' })
      .notNull()
      .references(() => installations.id),
    creatorId: uuid('creator_id')
      .notNull()
      .references(() => users.id),
    model: text('model').notNull(),
    reviewModel: text('review_model'),
    summarizationLimit: integer('summarization_limit').notNull(),
    curTokens: integer('cur_tokens').notNull().default(0),
    creditsSpent: bigint('credits_spent', { mode: 'number' }).notNull().default(0),
    /** Ledger units spent since the last user message: the per-agent budget check. */
    spentSinceMessage: bigint('spent_since_message', { mode: 'number' }).notNull().default(0),
    /** The running run asked to stop at its next safe point. */
    interruptRequested: boolean('interrupt_requested').notNull().default(false),
    agentType: text('agent_type').notNull().default('editor'),
    supervisorId: uuid('supervisor_id'),
    baseBranch: text('base_branch'),
    /** Why the agent exists beyond its messages: 'generate-scripts' for the repository's script writer. */
    purpose: text('purpose'),
    /**
     * The agent's own branch, chosen when its workspace is first prepared: tandem-{number}, or the
     * next free name when the code host already has that branch (someone else's work).
     */
    branch: text('branch'),
    archived: boolean('archived').notNull().default(false),
    curPorts: jsonb('cur_ports').$type<unknown[]>().notNull().default([]),
    /** Repository scripts the user asked to run (POST run-script), taken by the agent's next run. */
    pendingScripts: jsonb('pending_scripts')
      .$type<{ script_path: string; restart: boolean }[]>()
      .notNull()
      .default([]),
    /**
     * Set while the agent waits (the wait tool): the run has ended and holds no runner slot; its
     * timer, a new message or a comment on a subscription wakes it, whichever comes first.
     */
    wakeAt: timestamp('wake_at', { withTimezone: true, precision: 6 }),
    latestTimestamp: timestamp('latest_timestamp', { withTimezone: true, precision: 6 }),
    lastActive: timestamp('last_active', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index('agents_status_idx').on(t.status),
    index('agents_installation_created_idx').on(t.installationId, t.archived, t.createdAt),
    index('agents_installation_active_idx').on(t.installationId, t.archived, t.lastActive),
    index('agents_creator_idx').on(t.creatorId, t.createdAt),
    // The admin dashboard's agents started per day.
    index('agents_created_idx').on(t.createdAt),
    // A supervisor's sub-agents (list items' sub_agents, stopping them with it); few agents have one.
    index('agents_supervisor_idx')
      .on(t.supervisorId)
      .where(sql`${t.supervisorId} is not null`),
    uniqueIndex('agents_repository_number_key').on(t.repositoryId, t.number),
  ],
);

/** The feed: typed columns for what is queried, the rest of each item kind in `data`. */
export const conversationItems = pgTable(
  'conversation_items',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** Kept as text end to end so paging by `before=` keeps microsecond precision. */
    timestamp: isoTimestamp('timestamp').notNull(),
    itemType: text('item_type').notNull(),
    actionUuid: uuid('action_uuid').notNull(),
    pid: integer('pid'),
    actionType: text('action_type'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('conversation_items_agent_time_idx').on(t.agentId, t.timestamp),
    // People's items only (their messages): what the agent loop looks for at every step, among
    // what may be tens of thousands of the agent's own items.
    index('conversation_items_agent_people_idx')
      .on(t.agentId, t.timestamp)
      .where(sql`${t.userId} IS NOT NULL`),
    // Commits by sha: CI results (workflow_run) find the commit items they belong to.
    index('conversation_items_commit_sha_idx')
      .on(sql`(${t.data} ->> 'commit_sha')`)
      .where(sql`${t.itemType} = 'commit'`),
    // The admin dashboard: people's messages per day (active users) and errors per day.
    index('conversation_items_people_time_idx')
      .on(t.timestamp)
      .where(sql`${t.userId} IS NOT NULL`),
    index('conversation_items_errors_time_idx')
      .on(t.timestamp)
      .where(sql`${t.actionType} = 'ErrorEvent'`),
  ],
);

/** When each user last read each agent; unread = newer items than this. */
export const agentReads = pgTable(
  'agent_reads',
  {
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.userId] })],
);
