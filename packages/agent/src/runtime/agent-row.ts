import {
  agents,
  coalesced,
  conversationItems,
  installations,
  prepared,
  repositories,
  repositorySecrets,
  spiceMessages,
  users,
  userSettings,
  type Db,
} from '@tandem/db';
import { and, eq, getTableColumns, isNull, notInArray, sql } from 'drizzle-orm';
import { ASLEEP_STATUSES } from './asleep.js';
import { unfedMessagesColumn, type UnfedMessage } from './history.js';
import { parsedJson } from './json-column.js';
import type { AgentRow, RepoInfo } from './tools/index.js';

/** The repository as a run uses it. */
export type RunRepo = RepoInfo & { creditLimit: number };

export interface Requester {
  username: string;
  email: string | null;
  /** The user's Automatic PR Creation setting: may the agent open a pull request by itself? */
  autoCreatePr: boolean;
}

/**
 * The person the agent of the row being read works for now, as JSON: who wrote its last message,
 * else its creator. A column of a select from (or an update of) `agents`, so a step reads it with
 * the agent's row. Spelled with table names: inside a single-table statement drizzle writes bare
 * column names, which the subqueries would bind to their own tables.
 */
const requesterColumn = sql<Requester | string | null>`(
  select json_build_object(
    'username', u.username, 'email', u.email, 'autoCreatePr', coalesce(s.auto_create_pr, true))
  from ${users} u left join ${userSettings} s on s.user_id = u.id
  where u.id = coalesce(
    (select c.user_id from ${conversationItems} c join ${users} w on w.id = c.user_id
      where c.agent_id = "agents"."id" and c.user_id is not null
      order by c.timestamp desc limit 1),
    "agents"."creator_id"))`;

/** The requester column as read (see parsedJson). */
function requesterFrom(value: Requester | string | null): Requester {
  return parsedJson(value) ?? { username: 'unknown', email: null, autoCreatePr: true };
}

/** The person the agent works for now: who wrote the last message, else its creator. */
export async function requesterOf(db: Db, agent: Pick<AgentRow, 'id'>): Promise<Requester> {
  const [row] = await prepared(db, 'requester', (d, name) =>
    d
      .select({ requester: requesterColumn })
      .from(agents)
      .where(eq(agents.id, sql.placeholder('agentId')))
      .prepare(name),
  ).execute({ agentId: agent.id });
  return requesterFrom(row?.requester ?? null);
}

type RepoFields = Pick<
  typeof repositories.$inferSelect,
  'id' | 'fullName' | 'installationId' | 'defaultBranch' | 'creditLimit'
>;

/** A repository secret as stored: its value sealed by the server's secret box (RuntimeDeps.openSecret). */
export interface SealedSecret {
  key: string;
  sealed: string;
}

/** The repository's secrets, sealed, for a sandbox's environment and scrubber. */
export async function readSealedSecrets(db: Db, repositoryId: string): Promise<SealedSecret[]> {
  return prepared(db, 'sealed_secrets', (d, name) =>
    d
      .select({ key: repositorySecrets.key, sealed: repositorySecrets.sealedValue })
      .from(repositorySecrets)
      .where(eq(repositorySecrets.repositoryId, sql.placeholder('repositoryId')))
      .prepare(name),
  ).execute({ repositoryId });
}

/** A repository's `owner/name` in its two parts, as runs and code-host calls name them. */
export function ownerAndName(fullName: string): { owner: string; name: string } {
  const [owner = '', name = ''] = fullName.split('/');
  return { owner, name };
}

/** The repository as a run uses it, from its row (null without one). */
function repoInfo(row: RepoFields | null): RunRepo | null {
  if (!row) return null;
  const { owner, name } = ownerAndName(row.fullName);
  return {
    id: row.id,
    fullName: row.fullName,
    owner,
    name,
    installationId: row.installationId,
    defaultBranch: row.defaultBranch ?? 'main',
    creditLimit: row.creditLimit,
  };
}

/** The agent and its repository at the start of a run (any status). */
export async function readRunRow(
  db: Db,
  agentId: string,
): Promise<{ agent: AgentRow; repo: RunRepo | null } | null> {
  const [row] = await prepared(db, 'run_agent_row', (d, name) =>
    d
      .select({ agent: agents, repository: repositories })
      .from(agents)
      .leftJoin(repositories, eq(repositories.id, agents.repositoryId))
      .where(eq(agents.id, sql.placeholder('agentId')))
      .prepare(name),
  ).execute({ agentId });
  return row ? { agent: row.agent, repo: repoInfo(row.repository) } : null;
}

/**
 * What a step reads: the agent's row, its installation's balance, whom it works for now and the
 * user messages waiting to be fed to its model.
 */
export interface StepRow {
  agent: AgentRow;
  balance: number;
  requester: Requester;
  unfed: UnfedMessage[];
}

/** A step's read (see StepRow), at every step: the user may switch settings while the agent works. */
export async function readStepRow(db: Db, agentId: string): Promise<StepRow | null> {
  const [row] = await prepared(db, 'refresh_agent', (d, name) =>
    d
      .select({
        agent: agents,
        balance: installations.creditBalance,
        requester: requesterColumn,
        unfed: unfedMessagesColumn,
      })
      .from(agents)
      .innerJoin(installations, eq(installations.id, agents.installationId))
      .where(eq(agents.id, sql.placeholder('agentId')))
      .prepare(name),
  ).execute({ agentId });
  return row
    ? {
        agent: row.agent,
        balance: Number(row.balance),
        requester: requesterFrom(row.requester),
        unfed: parsedJson(row.unfed),
      }
    : null;
}

/** What openAwakeAgent answers: StepRow with the repository, its sealed secrets and the context. */
export type OpenedAgent = StepRow & { repo: RunRepo | null; secrets: SealedSecret[]; hasContext: boolean };

/**
 * The usual start of a run, an awake agent (queued by a message, a new agent, a restart): its
 * status set to 'open' and everything its first step reads in one statement: StepRow, the
 * repository, its sealed secrets (the sandbox and the scrubber need them before the first model
 * request) and whether there is a model context to read at all (a new agent has none). Null for
 * any other start (archived, asleep, waiting, gone), which reads and decides as before. One
 * statement instead of six, and one for all the runs that start together (coalesced.ts): on the
 * embedded database every statement of a hundred starting agents queues behind the others'
 * (issue 15).
 */
export async function openAwakeAgent(db: Db, agentId: string): Promise<OpenedAgent | null> {
  let open = openers.get(db);
  if (!open) {
    open = coalesced((agentIds: string[]) => openAwakeAgents(db, agentIds));
    openers.set(db, open);
  }
  return (await open(agentId)) ?? null;
}

const openers = new WeakMap<Db, (agentId: string) => Promise<OpenedAgent | undefined>>();

async function openAwakeAgents(db: Db, agentIds: string[]): Promise<Map<string, OpenedAgent>> {
  const rows = await prepared(db, 'open_awake_agents', (d, name) =>
    d
      .update(agents)
      .set({ status: 'open' })
      .where(
        and(
          sql`${agents.id} = any(${sql.placeholder('agentIds')}::uuid[])`,
          eq(agents.archived, false),
          notInArray(agents.status, [...ASLEEP_STATUSES]),
          isNull(agents.wakeAt),
        ),
      )
      .returning({
        ...getTableColumns(agents),
        openBalance: sql<number | string | null>`(select ${installations.creditBalance} from ${installations}
          where ${installations.id} = "agents"."installation_id")`,
        openRequester: requesterColumn,
        openUnfed: unfedMessagesColumn,
        openContext: sql<boolean>`exists (select 1 from ${spiceMessages} s
          where s.agent_id = "agents"."id" and s.summarized_at is null)`,
        openRepository: sql<RepoFields | string | null>`(select json_build_object(
          'id', r.id, 'fullName', r.full_name, 'installationId', r.installation_id,
          'defaultBranch', r.default_branch, 'creditLimit', r.credit_limit)
          from ${repositories} r where r.id = "agents"."repository_id")`,
        openSecrets: sql<SealedSecret[] | string>`(select coalesce(
          json_agg(json_build_object('key', s.key, 'sealed', s.sealed_value)), '[]'::json)
          from ${repositorySecrets} s where s.repository_id = "agents"."repository_id")`,
      })
      .prepare(name),
  ).execute({ agentIds });
  const opened = new Map<string, OpenedAgent>();
  for (const row of rows) {
    const { openBalance, openRequester, openUnfed, openContext, openRepository, openSecrets, ...agent } = row;
    opened.set(agent.id, {
      agent,
      balance: Number(openBalance ?? 0),
      requester: requesterFrom(openRequester),
      unfed: parsedJson(openUnfed),
      repo: repoInfo(openRepository === null ? null : parsedJson(openRepository)),
      secrets: parsedJson(openSecrets),
      hasContext: openContext,
    });
  }
  return opened;
}
