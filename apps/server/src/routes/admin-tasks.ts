import type { FastifyInstance } from 'fastify';
import { adminTasksQuerySchema, restartTaskSchema } from '@tandem/shared';
import { z } from 'zod';
import { parseRequest } from '../http/validation.js';
import { failTask } from '../services/admin/fail-task.js';
import { listTasks } from '../services/admin/list-tasks.js';
import { restartTask, type TaskActionDeps } from '../services/admin/restart-task.js';
import { stopTask } from '../services/admin/stop-task.js';
import { requireAdmin } from './admin.js';

const taskParams = z.object({ task_id: z.string().min(1).max(300) });

/** The admin task monitor's API (platform §7 Admin): product admins only. */
export function adminTaskRoutes(app: FastifyInstance, deps: TaskActionDeps): void {
  app.get('/api/admin/tasks', async (request) => {
    requireAdmin(request);
    return listTasks(deps.db, parseRequest(adminTasksQuerySchema, request.query, 'query'));
  });

  app.get('/api/admin/tasks/party', async (request) => {
    requireAdmin(request);
    return listTasks(deps.db, parseRequest(adminTasksQuerySchema, request.query, 'query'), true);
  });

  app.post('/api/admin/tasks/restart', async (request) => {
    const admin = requireAdmin(request);
    const { task_id } = parseRequest(restartTaskSchema, request.body, 'body');
    const task = await restartTask(deps, task_id);
    request.log.info({ admin: admin.id, taskId: task_id, kind: task.kind }, 'admin restarted a task');
    return { success: true, task };
  });

  app.post('/api/admin/tasks/:task_id/fail', async (request) => {
    const admin = requireAdmin(request);
    const { task_id } = parseRequest(taskParams, request.params, 'path');
    const task = await failTask(deps, task_id);
    request.log.info({ admin: admin.id, taskId: task_id, kind: task.kind }, 'admin failed a task');
    return { success: true, task };
  });

  app.post('/api/admin/tasks/:task_id/stop', async (request) => {
    const admin = requireAdmin(request);
    const { task_id } = parseRequest(taskParams, request.params, 'path');
    const task = await stopTask(deps, task_id);
    request.log.info({ admin: admin.id, taskId: task_id, kind: task.kind }, 'admin stopped a task');
    return { success: true, task };
  });
}
