import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
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
import { agents } from './agents.js';
import { installations, repositories } from './installations.js';

/** The model-facing context of an agent (the admins' "Spice Messages"), one row per message. */
export const spiceMessages = pgTable(
  'spice_messages',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    timestamp: isoTimestamp('timestamp').notNull(),
    /** 'system' (summaries), 'user', 'assistant' or 'tool' (AI SDK model messages). */
    role: text('role').notNull(),
    /** The AI SDK ModelMessage content, stored as is so a run resumes exactly. */
    content: jsonb('content').$type<unknown>().notNull(),
    /** The conversation item a user message came from: each is fed to the model once. */
    actionUuid: uuid('action_uuid'),
    responseStats: jsonb('response_stats').$type<Record<string, number>>(),
    /** Set when folded into a summary: the loop then reads the summary instead. */
    summarizedAt: timestamp('summarized_at', { withTimezone: true, precision: 6 }),
  },
  (t) => [
    index('spice_messages_agent_time_idx').on(t.agentId, t.timestamp),
    // The model's live context (not yet summarized), read at the start of every run and step.
    index('spice_messages_live_idx')
      .on(t.agentId, t.timestamp)
      .where(sql`${t.summarizedAt} IS NULL`),
    // The user messages already fed to the model, which the loop checks at every step.
    index('spice_messages_fed_idx')
      .on(t.agentId, t.actionUuid)
      .where(sql`${t.actionUuid} IS NOT NULL`),
    // Model calls by day (the admin dashboard's model spend): only model replies carry stats.
    index('spice_messages_stats_time_idx')
      .on(t.timestamp)
      .where(sql`${t.responseStats} IS NOT NULL`),
  ],
);

/** Every change of an installation's credit balance (platform §3 Transaction). */
export const creditTransactions = pgTable(
  'credit_transactions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    installationId: bigint('installation_id', { mode: 'number' })
      .notNull()
      .references(() => installations.id),
    /** Signed ledger units (hundredths of a cent). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** 'agent' (model usage), 'invoice' (purchases, auto-fill), 'gift' (admin gifts), 'other' (free credits, refunds). */
    kind: text('kind').notNull(),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    invoiceId: text('invoice_id'),
    description: text('description').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    /**
     * Insertion order: PGlite's clock ticks in milliseconds, so rows written together share a
     * created_at and the ledger breaks ties by this instead of by the random id.
     */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('credit_transactions_installation_idx').on(t.installationId, t.createdAt),
    // The transactions page filters by kind (Agents, Invoices, Other) and pages by date.
    index('credit_transactions_installation_kind_idx').on(t.installationId, t.kind, t.createdAt),
    index('credit_transactions_agent_idx').on(t.agentId),
    // Credits spent and bought per day across installations (the admin dashboard).
    index('credit_transactions_kind_created_idx').on(t.kind, t.createdAt),
    // A paid invoice credits once, however often its webhook arrives.
    uniqueIndex('credit_transactions_invoice_key')
      .on(t.invoiceId)
      .where(sql`${t.kind} = 'invoice' and ${t.invoiceId} is not null`),
  ],
);

/**
 * Results of tools with outside effects (commit, push, PR, comment, issue), keyed by tool call: a
 * run resumed after a crash finds the row and reuses the result instead of acting twice.
 */
export const agentSideEffects = pgTable(
  'agent_side_effects',
  {
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    result: jsonb('result').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.key] })],
);

/** Runs of repository scripts (.tandem/setup.sh, .tandem/format.sh, .tandem/run/…): the Log entity. */
export const scriptLogs = pgTable(
  'script_logs',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    repositoryId: uuid('repository_id').references(() => repositories.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    path: text('path').notNull(),
    statusCode: integer('status_code'),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 6 }).notNull(),
    durationMs: integer('duration_ms'),
    commitSha: text('commit_sha'),
    scriptContents: text('script_contents').notNull().default(''),
    output: text('output').notNull().default(''),
  },
  (t) => [index('script_logs_repository_idx').on(t.repositoryId, t.startedAt)],
);

/**
 * Agent worker processes on Postgres (the queue runner), heartbeating so a live one can hand a
 * crashed one's locked runs back to the queue (graphile-worker alone waits four hours).
 */
export const runnerProcesses = pgTable('runner_processes', {
  id: uuid('id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
});

/** graphile-worker's worker ids (the jobs' `locked_by`) per process, for the unlock above. */
export const runnerWorkerIds = pgTable('runner_worker_ids', {
  workerId: text('worker_id').primaryKey(),
  processId: uuid('process_id')
    .notNull()
    .references(() => runnerProcesses.id, { onDelete: 'cascade' }),
});
