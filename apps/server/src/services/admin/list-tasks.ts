import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '@tandem/db';
import {
  AGENT_TASK_STATUSES,
  WEBHOOK_TASK_STATUSES,
  type AdminTaskList,
  type AdminTasksRequest,
} from '@tandem/shared';
import { agentTasks, PARTY_PURPOSE, rowsOf, toTask, webhookTasks, type TaskRow } from './task-rows.js';

/** The union of the kinds the query asks for (the party list has agents only). */
function source(query: AdminTasksRequest, party: boolean): SQL {
  const agentsOnly = party || query.kind === 'agent';
  const webhooksOnly = !party && query.kind === 'webhook';
  // A status only one kind has leaves the other out altogether.
  const agentStatus = !query.status || (AGENT_TASK_STATUSES as readonly string[]).includes(query.status);
  const webhookStatus = !query.status || (WEBHOOK_TASK_STATUSES as readonly string[]).includes(query.status);
  const parts: SQL[] = [];
  if (!webhooksOnly && agentStatus)
    parts.push(party ? agentTasks(sql`where a.purpose = ${PARTY_PURPOSE}`) : agentTasks());
  if (!agentsOnly && webhookStatus) parts.push(webhookTasks());
  if (!parts.length) return sql`select * from (${agentTasks()}) none where false`;
  return sql.join(parts, sql` union all `);
}

/** GET /api/admin/tasks (and /tasks/party): agent runs and queued webhook deliveries, paged. */
export async function listTasks(db: Db, query: AdminTasksRequest, party = false): Promise<AdminTaskList> {
  const filters: SQL[] = [];
  if (query.status) filters.push(sql`t.status = ${query.status}`);
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
