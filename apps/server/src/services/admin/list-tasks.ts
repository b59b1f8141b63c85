import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@tandem/db';
import {
  AGENT_TASK_STATUSES,
  WEBHOOK_TASK_PREFIX,
  WEBHOOK_TASK_STATUSES,
  type AdminTask,
  type AdminTaskList,
  type AdminTasksRequest,
} from '@tandem/shared';

/** The party agent's runs (platform §1: the public shared agent); see docs/decisions.md. */
export const PARTY_PURPOSE = 'party';

/**
 * One row shape for both kinds, so one query pages and sorts them together. Written as SQL: a
 * UNION of two differently shaped tables is clearer here than drizzle's set operators.
 */
const AGENT_TASKS = sql`
  select 'agent'::text as kind, a.id::text as id, a.status::text as status, a.title,
    a.installation_id, i.account_login as installation_name, r.full_name as repository,
    a.model, u.username as creator, a.purpose, a.archived, a.created_at, a.last_active,
    a.credits_spent::bigint as cost, 0 as attempts, null::text as error,
    null::timestamptz as next_attempt_at
  from agents a
  join installations i on i.id = a.installation_id
  left join repositories r on r.id = a.repository_id
  left join users u on u.id = a.creator_id`;

/** Deliveries not yet applied: marker rows and applied ones have no payload. */
const WEBHOOK_TASKS = sql`
  select 'webhook'::text as kind, ${WEBHOOK_TASK_PREFIX} || w.delivery_id as id,
    case when w.next_attempt_at is null then 'failed'
      when w.attempts = 0 then 'queued' else 'retrying' end as status,
    w.event || coalesce('.' || w.action, '') as title,
    w.installation_id, i.account_login as installation_name, null::text as repository,
    null::text as model, null::text as creator, null::text as purpose, false as archived,
    w.received_at as created_at, w.received_at as last_active, 0::bigint as cost, w.attempts,
    w.error, w.next_attempt_at
  from webhook_deliveries w
  left join installations i on i.id = w.installation_id
  where w.processed_at is null and w.payload is not null`;

interface TaskRow {
  kind: string;
  id: string;
  status: string;
  title: string;
  installation_id: number | string | null;
  installation_name: string | null;
  repository: string | null;
  model: string | null;
  creator: string | null;
  purpose: string | null;
  archived: boolean;
  created_at: Date | string;
  last_active: Date | string;
  cost: number | string;
  attempts: number | string;
  error: string | null;
  next_attempt_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

function toTask(row: TaskRow): AdminTask {
  const installation =
    row.installation_id === null ? null : { id: Number(row.installation_id), name: row.installation_name };
  if (row.kind === 'webhook')
    return {
      kind: 'webhook',
      id: row.id,
      status: row.status as (typeof WEBHOOK_TASK_STATUSES)[number],
      title: row.title,
      installation,
      attempts: Number(row.attempts),
      error: row.error,
      next_attempt_at: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
      created_at: iso(row.created_at),
    };
  return {
    kind: 'agent',
    id: row.id,
    status: row.status,
    title: row.title,
    installation: installation ?? { id: 0, name: null },
    repository: row.repository,
    model: row.model ?? '',
    creator: row.creator,
    purpose: row.purpose,
    archived: row.archived,
    created_at: iso(row.created_at),
    last_active: iso(row.last_active),
    cost: Number(row.cost),
  };
}

/** The union of the kinds the query asks for (the party list has agents only). */
function source(query: AdminTasksRequest, party: boolean): SQL {
  const agentsOnly = party || query.kind === 'agent';
  const webhooksOnly = !party && query.kind === 'webhook';
  // A status only one kind has leaves the other out altogether.
  const agentStatus = !query.status || (AGENT_TASK_STATUSES as readonly string[]).includes(query.status);
  const webhookStatus = !query.status || (WEBHOOK_TASK_STATUSES as readonly string[]).includes(query.status);
  const parts: SQL[] = [];
  if (!webhooksOnly && agentStatus) parts.push(AGENT_TASKS);
  if (!agentsOnly && webhookStatus) parts.push(WEBHOOK_TASKS);
  if (!parts.length) return sql`select * from (${AGENT_TASKS}) none where false`;
  return sql.join(parts, sql` union all `);
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** GET /api/admin/tasks (and /tasks/party): agent runs and queued webhook deliveries, paged. */
export async function listTasks(db: Db, query: AdminTasksRequest, party = false): Promise<AdminTaskList> {
  const filters: SQL[] = [];
  if (query.status) filters.push(sql`t.status = ${query.status}`);
  if (party) filters.push(sql`t.purpose = ${PARTY_PURPOSE}`);
  const where = filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``;
  const column = query.sort_by === 'cost' ? sql`t.cost` : sql`t.created_at`;
  const direction = query.descending ? sql`desc` : sql`asc`;
  const from = sql`from (${source(query, party)}) t ${where}`;
  const [rows, total] = await Promise.all([
    db.execute(sql`select t.* ${from}
      order by ${column} ${direction}, t.id ${direction}
      limit ${query.rows_per_page} offset ${(query.page - 1) * query.rows_per_page}`),
    db.execute(sql`select count(*)::int as n ${from}`),
  ]);
  return {
    tasks: rowsOf<TaskRow>(rows).map(toTask),
    count: Number(rowsOf<{ n: number | string }>(total)[0]?.n ?? 0),
  };
}

/** One task by its id, as the list shows it; undefined when there is none. */
export async function findTask(db: Db, taskId: string): Promise<AdminTask | undefined> {
  const webhook = taskId.startsWith(WEBHOOK_TASK_PREFIX);
  if (!webhook && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(taskId))
    return undefined;
  const result = await db.execute(
    sql`select t.* from (${webhook ? WEBHOOK_TASKS : AGENT_TASKS}) t where t.id = ${taskId}`,
  );
  const [row] = rowsOf<TaskRow>(result);
  return row ? toTask(row) : undefined;
}
