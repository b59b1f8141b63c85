import { adminTaskActionSchema, type AdminTaskActionName } from '@tandem/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api/client';
import { queryKeys } from '../api/query-keys';

/** The call behind each action (platform §7 Admin): restart takes the id in its body. */
function request(action: AdminTaskActionName, taskId: string) {
  if (action === 'restart')
    return apiFetch('/api/admin/tasks/restart', {
      method: 'POST',
      body: { task_id: taskId },
      schema: adminTaskActionSchema,
    });
  return apiFetch(`/api/admin/tasks/${encodeURIComponent(taskId)}/${action}`, {
    method: 'POST',
    schema: adminTaskActionSchema,
  });
}

/** Restarts, fails or stops a task, then refreshes the monitor. */
export function useTaskAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, taskId }: { action: AdminTaskActionName; taskId: string }) =>
      request(action, taskId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminTasksAll }),
  });
}
