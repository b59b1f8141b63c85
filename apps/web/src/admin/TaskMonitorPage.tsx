import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ADMIN_TASK_KINDS,
  ADMIN_TASK_SORTS,
  ADMIN_TASK_STATUSES,
  formatCredits,
  relativeTime,
  WORKING_STATUSES,
  type AdminTask,
  type AdminTaskActionName,
} from '@tandem/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ApiError } from '../api/client';
import { agentPath } from '../agents/agent-display';
import { usePageTitle } from '../lib/page-title';
import { AdminListTable } from './AdminListTable';
import { ACTION_LABELS, TaskActionDialog, type PendingAction } from './TaskActionDialog';
import { useAdminTasks } from './use-admin-tasks';
import { useListParams, useSortParams } from './use-list-params';
import { useTaskAction } from './use-task-action';
import type { SortableColumn } from './SortableTableHead';

type Sort = (typeof ADMIN_TASK_SORTS)[number];
const COLUMNS: SortableColumn<Sort>[] = [
  { sort: null, label: 'Task' },
  { sort: null, label: 'Status' },
  { sort: null, label: 'Installation' },
  { sort: null, label: 'Repository' },
  { sort: null, label: 'Model' },
  { sort: 'created_at', label: 'Age' },
  { sort: 'cost', label: 'Cost', numeric: true },
  { sort: null, label: 'Actions' },
];
const KIND_LABELS: Record<(typeof ADMIN_TASK_KINDS)[number], string> = {
  agent: 'Agents',
  webhook: 'Webhook deliveries',
};

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | '' =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : '';

/** The actions that apply to the task as the table shows it (the server checks again). */
export function actionsFor(task: AdminTask): AdminTaskActionName[] {
  if (task.kind === 'webhook') return task.status === 'failed' ? ['restart'] : ['fail'];
  const working = (WORKING_STATUSES as readonly string[]).includes(task.status);
  const actions: AdminTaskActionName[] = [];
  if (!working && !task.archived) actions.push('restart');
  if (working) actions.push('stop');
  if (task.status !== 'failed') actions.push('fail');
  return actions;
}

function TaskCell({ task }: { task: AdminTask }) {
  if (task.kind === 'webhook')
    return (
      <Stack spacing={0.5}>
        <span>{task.title}</span>
        <Typography variant="caption" color="text.secondary">
          Webhook delivery · {task.attempts} attempt{task.attempts === 1 ? '' : 's'}
          {task.error ? ` · ${task.error}` : ''}
        </Typography>
      </Stack>
    );
  return (
    <Stack spacing={0.5}>
      <Link component={RouterLink} to={agentPath({ id: task.id, repo_name: task.repository })}>
        {task.title}
      </Link>
      <Typography variant="caption" color="text.secondary">
        {task.purpose === 'party' ? 'Party agent' : 'Agent'}
        {task.creator ? ` · by ${task.creator}` : ''}
        {task.archived ? ' · archived' : ''}
      </Typography>
    </Stack>
  );
}

/** /admin/task_monitor (platform §2, §7 Admin): every agent run and queued job; restart, fail, stop. */
export default function TaskMonitorPage() {
  usePageTitle('Task Monitor ·');
  // The URL is the table's state (DESIGN.md §7), defaults left out.
  const listParams = useListParams();
  const { params } = listParams;
  const { page, rows_per_page } = listParams.query;
  const { sortBy, descending, sortOn } = useSortParams(listParams, ADMIN_TASK_SORTS, 'created_at');
  const status = oneOf(ADMIN_TASK_STATUSES, params.get('status'));
  const kind = oneOf(ADMIN_TASK_KINDS, params.get('kind'));
  const party = params.get('view') === 'party';
  const list = useAdminTasks(
    { page, rows_per_page, sort_by: sortBy, descending, status, kind: party ? '' : kind },
    party,
  );
  const act = useTaskAction();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const { update } = listParams;

  const confirm = async () => {
    if (!pending) return;
    const { action, task } = pending;
    try {
      await act.mutateAsync({ action, taskId: task.id });
      const done = { restart: 'Restarted', fail: 'Marked failed', stop: 'Stopped' }[action];
      setNotice({ ok: true, text: `${done}: ${task.title}.` });
    } catch (error) {
      setNotice({
        ok: false,
        text: error instanceof ApiError ? error.serverMessage : `Could not ${action} the task.`,
      });
    }
    setPending(null);
  };

  return (
    <Container maxWidth="xl" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Task Monitor
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label="Show"
          value={party ? 'party' : 'all'}
          onChange={(event) => update({ view: event.target.value === 'party' ? 'party' : null, page: null })}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="all">All tasks</MenuItem>
          <MenuItem value="party">Party agent</MenuItem>
        </TextField>
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          onChange={(event) => update({ status: event.target.value, page: null })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">Any status</MenuItem>
          {ADMIN_TASK_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        {party ? null : (
          <TextField
            select
            size="small"
            label="Kind"
            value={kind}
            onChange={(event) => update({ kind: event.target.value, page: null })}
            sx={{ minWidth: 200 }}
          >
            <MenuItem value="">Agents and webhooks</MenuItem>
            {ADMIN_TASK_KINDS.map((k) => (
              <MenuItem key={k} value={k}>
                {KIND_LABELS[k]}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      {notice ? (
        <Alert severity={notice.ok ? 'success' : 'error'} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
          {notice.text}
        </Alert>
      ) : null}
      <AdminListTable
        label="Tasks"
        noun="tasks"
        list={list}
        page={list.data && { rows: list.data.tasks, count: list.data.count }}
        columns={COLUMNS}
        sort={{ sortBy, descending, onSort: sortOn }}
        pagination={listParams.pagination}
        renderRow={(task) => (
          <TableRow key={task.id} data-testid="task-row">
            <TableCell>
              <TaskCell task={task} />
            </TableCell>
            <TableCell>
              <Chip
                size="small"
                variant="outlined"
                label={task.status}
                color={task.status === 'failed' ? 'error' : 'default'}
              />
            </TableCell>
            <TableCell>
              {task.installation ? `${task.installation.name ?? 'unknown'} #${task.installation.id}` : '—'}
            </TableCell>
            <TableCell>{task.kind === 'agent' ? (task.repository ?? '—') : '—'}</TableCell>
            <TableCell>{task.kind === 'agent' ? task.model : '—'}</TableCell>
            <TableCell title={new Date(task.created_at).toLocaleString()}>
              {relativeTime(task.created_at)}
            </TableCell>
            <TableCell align="right">{task.kind === 'agent' ? formatCredits(task.cost) : '—'}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={1}>
                {actionsFor(task).map((action) => (
                  <Button
                    key={action}
                    size="small"
                    color={action === 'restart' ? 'primary' : 'error'}
                    aria-label={`${ACTION_LABELS[action]} ${task.title}`}
                    onClick={() => setPending({ action, task })}
                  >
                    {ACTION_LABELS[action]}
                  </Button>
                ))}
              </Stack>
            </TableCell>
          </TableRow>
        )}
      />
      <TaskActionDialog
        pending={pending}
        busy={act.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </Container>
  );
}
