import { sql } from 'drizzle-orm';
import type { Db } from '@tandem/db';
import { WEBHOOK_TASK_PREFIX, type AdminTask } from '@tandem/shared';
import { agentTasks, rowsOf, toTask, webhookTasks, type TaskRow } from './task-rows.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One task by its id, as the monitor lists it; undefined when there is none (or it is done). */
export async function findTask(db: Db, taskId: string): Promise<AdminTask | undefined> {
  const query = taskId.startsWith(WEBHOOK_TASK_PREFIX)
    ? webhookTasks(sql`and w.delivery_id = ${taskId.slice(WEBHOOK_TASK_PREFIX.length)}`)
    : UUID.test(taskId)
      ? agentTasks(sql`where a.id = ${taskId}`)
      : undefined;
  if (!query) return undefined;
  const [row] = rowsOf<TaskRow>(await db.execute(query));
  return row ? toTask(row) : undefined;
}
