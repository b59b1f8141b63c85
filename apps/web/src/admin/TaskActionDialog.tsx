import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { AdminTask, AdminTaskActionName } from '@tandem/shared';

export interface PendingAction {
  action: AdminTaskActionName;
  task: AdminTask;
}

export const ACTION_LABELS: Record<AdminTaskActionName, string> = {
  restart: 'Restart',
  fail: 'Fail',
  stop: 'Stop',
};

/** What each action does, said before it is done. */
function consequence({ action, task }: PendingAction): string {
  if (task.kind === 'webhook')
    return action === 'restart'
      ? `The delivery "${task.title}" will be tried again now, with a fresh set of retries.`
      : `The delivery "${task.title}" will not be tried again.`;
  switch (action) {
    case 'restart':
      return `"${task.title}" will run again from where it stopped. Its feed will say an admin restarted it.`;
    case 'fail':
      return `"${task.title}" will stop if it is working and be marked failed until someone messages it. Its feed will say an admin marked it failed.`;
    case 'stop':
      return `"${task.title}" will stop at its next safe point, as if its owner paused it. Its feed will say an admin stopped it.`;
  }
}

/** Asks before an admin restarts, fails or stops a task. */
export function TaskActionDialog(props: {
  pending: PendingAction | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { pending } = props;
  const label = pending ? ACTION_LABELS[pending.action] : '';
  return (
    <Dialog open={pending !== null} onClose={props.onCancel} aria-labelledby="task-action-title">
      <DialogTitle id="task-action-title">{pending ? `${label} this task?` : ''}</DialogTitle>
      <DialogContent>
        <DialogContentText>{pending ? consequence(pending) : ''}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button
          variant="contained"
          color={pending?.action === 'restart' ? 'primary' : 'error'}
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {label}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
