import { appendItem } from '@tandem/agent';
import type { Db } from '@tandem/db';
import { ADMIN_TASK_EVENT, ADMIN_TASK_EVENT_TEXT, type AdminTaskActionName } from '@tandem/shared';
import { AppError, notFound } from '../../errors/app-error.js';

/**
 * The feed item an admin's restart, fail or stop leaves on the agent (rendered as a notice in the
 * workspace feed). It names no admin: the agent's people see that an admin acted, the server log
 * says which one.
 */
export async function writeTaskEvent(db: Db, agentId: string, action: AdminTaskActionName): Promise<void> {
  await appendItem(db, agentId, {
    itemType: 'action',
    actionType: ADMIN_TASK_EVENT,
    data: { action_type: ADMIN_TASK_EVENT, admin_action: action, summary: ADMIN_TASK_EVENT_TEXT[action] },
  });
}

/** 409: the action does not apply to the task as it is now. */
export const taskConflict = (message: string) => new AppError('conflict', message);

export const taskNotFound = () => notFound('Task not found');
