import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { agents } from './agents.js';
import { repositories } from './installations.js';

/**
 * What an agent is subscribed to (workspace §3 "Source"): its branch (with the pull request once
 * one is open) and issues or pull requests it was pointed at. Metadata groups them by repository.
 */
export const agentSources = pgTable(
  'agent_sources',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    repositoryId: uuid('repository_id')
      .notNull()
      .references(() => repositories.id, { onDelete: 'cascade' }),
    /** `branch` (a branch, and its pull request when `number` is set), `issue`, `repository`. */
    type: text('type').notNull(),
    number: integer('number'),
    branch: text('branch'),
    behavior: text('behavior').notNull().default('always'),
    /** open, merged or closed. */
    state: text('state').notNull().default('open'),
    /** The pull request to open: first line title, the rest body. */
    prDraft: text('pr_draft'),
    prDraftBaseBranch: text('pr_draft_base_branch'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index('agent_sources_agent_idx').on(t.agentId),
    index('agent_sources_repo_number_idx').on(t.repositoryId, t.number),
  ],
);
