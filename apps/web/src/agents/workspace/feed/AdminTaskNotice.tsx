import Alert from '@mui/material/Alert';
import { ADMIN_TASK_ACTIONS, ADMIN_TASK_EVENT_TEXT, type AdminTaskActionName } from '@tandem/shared';

const isAction = (value: unknown): value is AdminTaskActionName =>
  typeof value === 'string' && (ADMIN_TASK_ACTIONS as readonly string[]).includes(value);

/** What a product admin did to the agent from the task monitor (restart, fail, stop). */
export function AdminTaskNotice({ action }: { action: unknown }) {
  // The text is ours, chosen by the stored action, never the stored text itself.
  if (!isAction(action)) return null;
  return (
    <Alert
      severity={action === 'fail' ? 'error' : action === 'stop' ? 'warning' : 'info'}
      data-testid="admin-task-notice"
    >
      {ADMIN_TASK_EVENT_TEXT[action]}
    </Alert>
  );
}
