import { sql, type SQL } from 'drizzle-orm';
import { WEBHOOK_TASK_PREFIX, type AdminTask, type WEBHOOK_TASK_STATUSES } from '@tandem/shared';

// The party agent's runs (platform §1: the public shared agent) carry this purpose.
export { PARTY_PURPOSE } from '../agents/agent-access.js';

/**
 * One row shape for both kinds, so one query pages and sorts them together. Written as SQL: a
 * UNION of two differently shaped tables is clearer here than drizzle's set operators.
 */
export const agentTasks = (where: SQL = sql``) => sql`
  select 'agent'::text as kind, a.id::text as id, a.status::text as status, a.title,
    a.installation_id, i.account_login as installation_name, r.full_name as repository,
    a.model, u.username as creator, a.purpose, a.archived, a.created_at, a.last_active,
    a.credits_spent::bigint as cost, 0 as attempts, null::text as error,
    null::timestamptz as next_attempt_at
  from agents a
  join installations i on i.id = a.installation_id
  left join repositories r on r.id = a.repository_id
  left join users u on u.id = a.creator_id
  ${where}`;

/** Deliveries not yet applied: marker rows and applied ones have no payload. */
export const webhookTasks = (where: SQL = sql``) => sql`
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
  where w.processed_at is null and w.payload is not null ${where}`;

export interface TaskRow {
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

export function toTask(row: TaskRow): AdminTask {
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

export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
