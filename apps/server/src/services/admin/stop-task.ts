import { WORKING_STATUSES, type AdminTask } from '@tandem/shared';
import { stopAgentById } from '../supervisors/stop-agent.js';
import { findTask } from './find-task.js';
import type { TaskActionDeps } from './restart-task.js';
import { taskConflict, taskNotFound, writeTaskEvent } from './task-event.js';

/**
 * POST /api/admin/tasks/{task_id}/stop: interrupts a working (or waiting) agent as its owner's
 * Pause would; it ends paused, and a message or a restart wakes it. A webhook delivery has no run
 * to stop: fail it instead.
 */
export async function stopTask(deps: TaskActionDeps, taskId: string): Promise<AdminTask> {
  const task = await findTask(deps.db, taskId);
  if (!task) throw taskNotFound();
  if (task.kind === 'webhook')
    throw taskConflict('A webhook delivery cannot be stopped; mark it failed instead.');
  if (!(WORKING_STATUSES as readonly string[]).includes(task.status))
    throw taskConflict('This agent is not working.');
  await writeTaskEvent(deps.db, task.id, 'stop');
  await stopAgentById(deps.db, deps.runner, task.id);
  return (await findTask(deps.db, taskId))!;
}
