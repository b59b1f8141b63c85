import ErrorIcon from '@mui/icons-material/ErrorOutlined';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ADMIN_TASK_EVENT, type ConversationItem } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { shellTranscript, visibleWorkflows, type FeedEntry } from './feed-model';
import { OutOfCreditsNotice } from '../OutOfCreditsNotice';
import { AdminTaskNotice } from './feed/AdminTaskNotice';
import { useFeedRepo, useOpenTab } from './open-tab-context';
import { Markdown } from '../../lib/Markdown';
import { githubOrigin, safeUrl } from './feed/github-message';
import { SubAgentReport } from './feed/SubAgentReport';

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' ? value : 0);

function ReviewComment({ comment }: { comment: Record<string, unknown> }) {
  const first = num(comment.start_line);
  const last = num(comment.line);
  const lines = first && first !== last ? `${first}-${last}` : String(last);
  const url = safeUrl(comment.html_url);
  const where = `${str(comment.path)}:${lines}${comment.side === 'LEFT' ? ' (old)' : ''}`;
  return (
    <Typography component="li" variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        {url ? (
          <Link href={url} target="_blank" rel="noreferrer noopener">
            {where}
          </Link>
        ) : (
          where
        )}
      </Box>{' '}
      <Markdown source={str(comment.body)} sx={{ display: 'inline-block', verticalAlign: 'top' }} />
    </Typography>
  );
}

function MessageItem({ item, own }: { item: ConversationItem; own: boolean }) {
  const assistant = item.role === 'assistant';
  const username = str(item.username) || (assistant ? 'tandem' : 'user');
  const images = num(item.image_count);
  const comments = Array.isArray(item.review_comments)
    ? (item.review_comments as Record<string, unknown>[])
    : [];
  // A comment, review or issue on the code host: its author's avatar and a link back to it.
  const github = githubOrigin(item);
  return (
    <Stack
      direction={own ? 'row-reverse' : 'row'}
      spacing={1.5}
      sx={{ alignItems: 'flex-start' }}
      data-testid="feed-message"
    >
      <Avatar
        src={github?.avatarUrl ?? undefined}
        alt=""
        sx={{ width: 32, height: 32, bgcolor: assistant ? 'primary.main' : 'secondary.main' }}
      >
        {username.slice(0, 1).toUpperCase()}
      </Avatar>
      <Paper variant="outlined" sx={{ px: 1.5, py: 1, maxWidth: '80%' }}>
        <Typography variant="caption" color="text.secondary">
          {username}
          {github ? ` ${github.verb}` : ''}
          {item.action_type === 'supervisor_request' ? ' (from the supervisor)' : ''}
          {github?.url ? (
            <>
              {' · '}
              <Link href={github.url} target="_blank" rel="noreferrer noopener">
                View on the code host
              </Link>
            </>
          ) : null}
        </Typography>
        <Markdown source={str(item.message)} sx={{ typography: 'body1' }} />
        {comments.length ? (
          <Stack component="ul" spacing={0.5} sx={{ m: 0, mt: 1, pl: 2 }} aria-label="Review comments">
            {comments.map((c, i) => (
              <ReviewComment
                comment={c}
                key={typeof c.id === 'string' || typeof c.id === 'number' ? c.id : i}
              />
            ))}
          </Stack>
        ) : null}
        {images > 0 ? (
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap' }}>
            {Array.from({ length: images }, (_, i) => (
              <Box
                key={i}
                component="img"
                src={`/user_asset/event/${item.action_uuid}/${i + 1}`}
                alt={`Attached image ${i + 1}`}
                sx={{ maxWidth: 240, maxHeight: 180, borderRadius: 1 }}
              />
            ))}
          </Stack>
        ) : null}
      </Paper>
    </Stack>
  );
}

function Line({ children, tone }: { children: React.ReactNode; tone?: 'error' }) {
  return (
    <Typography
      variant="body2"
      color={tone === 'error' ? 'error' : 'text.secondary'}
      sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {children}
    </Typography>
  );
}

function ActionItem({ item }: { item: ConversationItem }) {
  const openTab = useOpenTab();
  switch (item.action_type) {
    case 'ErrorEvent':
      return <Alert severity="error">{str(item.exception) || 'The agent hit an error.'}</Alert>;
    case 'OutOfCreditsEvent':
      return <OutOfCreditsNotice />;
    case 'OverBudgetEvent':
    case 'OverCreditLimitEvent':
      return <OverBudget limit={num(item.credit_limit)} />;
    case 'TaskCompleteEvent':
      return <Alert severity="success">{str(item.task_summary) || 'Task complete'}</Alert>;
    case 'InterruptEvent':
      return <Line>Paused by the user.</Line>;
    case ADMIN_TASK_EVENT:
      return <AdminTaskNotice action={item.admin_action} />;
    case 'AutoReviewEvent':
      return (
        <Paper variant="outlined" sx={{ p: 1 }}>
          {openTab ? (
            <Button
              size="small"
              sx={{ float: 'right' }}
              onClick={() => openTab({ kind: 'auto-review', actionUuid: item.action_uuid })}
            >
              Open review
            </Button>
          ) : null}
          <Line>
            Auto-review{item.auto_review_status === 'completed' ? '' : ' in progress…'}: {str(item.summary)}
          </Line>
          {item.auto_review ? <Line>{str(item.auto_review)}</Line> : null}
        </Paper>
      );
    case 'SummaryEvent':
      return (
        <Line>
          Summarized the conversation so far.{' '}
          {openTab ? (
            <Button size="small" onClick={() => openTab({ kind: 'summary' })}>
              Open summary
            </Button>
          ) : null}
        </Line>
      );
    case 'WaitEvent':
      return (
        <Line>
          {item.wait_status === 'waiting' ? 'Waiting' : 'Waited'}
          {num(item.seconds) ? ` ${num(item.seconds)} s` : ''} for new activity.
        </Line>
      );
    case 'WakeEvent':
      return (
        <Line>
          {item.wake_status === 'message'
            ? 'Woke up early: something new arrived.'
            : `Woke up${item.wake_status && item.wake_status !== 'woke' ? ` (${str(item.wake_status)})` : ''}.`}
        </Line>
      );
    case 'ShutdownEvent':
      // A clean shutdown is noise; one with an exception is the reason the agent stopped.
      return item.exception ? (
        <Alert severity="error" icon={<ErrorIcon fontSize="inherit" />}>
          The sandbox stopped: {str(item.exception)}
        </Alert>
      ) : (
        <Line>Sandbox stopped.</Line>
      );
    default:
      return <Line>{str(item.summary) || item.action_type}</Line>;
  }
}

function ShellGroup({ entry }: { entry: Extract<FeedEntry, { kind: 'shell' }> }) {
  const output = shellTranscript(entry.shell, entry.messages);
  const openTab = useOpenTab();
  const pid = entry.shell.pid;
  return (
    <Paper variant="outlined" sx={{ p: 1 }} aria-label={`Shell #${entry.shell.pid}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5 }}>
        <Typography variant="body2" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
          $ {str(entry.shell.command)}
        </Typography>
        {entry.active ? <Chip size="small" color="primary" label="running" /> : null}
        {openTab && pid !== null ? (
          <Button
            size="small"
            onClick={() => openTab({ kind: 'shell', pid })}
            aria-label={`Open Shell #${pid}`}
          >
            Open
          </Button>
        ) : null}
      </Stack>
      {/* Focusable, so keyboard users can scroll long output (axe: scrollable-region-focusable). */}
      <Box
        component="pre"
        tabIndex={0}
        aria-label={`Output of ${str(entry.shell.command)}`}
        sx={{ m: 0, maxHeight: 240, overflow: 'auto', fontSize: 12, whiteSpace: 'pre-wrap' }}
      >
        {output}
      </Box>
    </Paper>
  );
}

const WORKFLOW_COLORS: Record<string, 'success' | 'error' | 'default'> = {
  success: 'success',
  failure: 'error',
};

/** A commit with its format-script status and the CI workflows reported for its sha (workspace §3, §4). */
function CommitItem({ item }: { item: ConversationItem }) {
  const openTab = useOpenTab();
  const workflows = visibleWorkflows(item, Date.now());
  const logId = str(item.script_log);
  return (
    <Paper variant="outlined" sx={{ p: 1 }} data-testid="feed-commit">
      <Line>
        Committed {str(item.commit_sha).slice(0, 7)} to {str(item.branch)}: {str(item.commit_message)}
      </Line>
      <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
        {item.script_status === 'pending' ? <Line>Running format script...</Line> : null}
        {item.script_status === 'success' || item.script_status === 'failure' ? (
          <Chip
            size="small"
            label={`Format script ${item.script_status === 'success' ? 'passed' : 'failed'}`}
            color={item.script_status === 'success' ? 'success' : 'error'}
          />
        ) : null}
        {openTab && /^[0-9a-f-]{36}$/.test(logId) ? (
          <Button size="small" onClick={() => openTab({ kind: 'log', logId, path: '.tandem/format.sh' })}>
            View log
          </Button>
        ) : null}
        {workflows.map((w, i) => (
          <Chip
            key={`${str(w.workflow_name)}-${i}`}
            size="small"
            variant="outlined"
            color={WORKFLOW_COLORS[str(w.workflow_status)] ?? 'default'}
            label={`${str(w.workflow_name) || 'Workflow'}: ${str(w.workflow_status).replace('_', ' ')}`}
          />
        ))}
      </Stack>
    </Paper>
  );
}

/** Files the agent read; each opens in the file viewer at the agent's branch. */
function ViewItem({ item }: { item: ConversationItem }) {
  const openTab = useOpenTab();
  const repo = useFeedRepo();
  const paths = Object.keys((item.files as Record<string, unknown> | undefined) ?? {});
  if (!openTab || !repo) return <Line>Viewed {paths.join(', ')}</Line>;
  return (
    <Line>
      Viewed{' '}
      {paths.map((path, i) => (
        <span key={path}>
          {i ? ', ' : ''}
          <Link
            component="button"
            variant="body2"
            onClick={() => openTab({ kind: 'file', repositoryName: repo.repoName, path, ref: repo.branch })}
          >
            {path}
          </Link>
        </span>
      ))}
    </Line>
  );
}

/** 'Exceeded budget of {n}¢ since last message. Change budget here. Message to continue.' */
function OverBudget({ limit }: { limit: number }) {
  const repo = useFeedRepo();
  return (
    <Alert severity="warning">
      Exceeded budget of {limit}¢ since last message.{' '}
      {repo ? (
        <Link component={RouterLink} to={`/gh/${repo.repoName}/settings#behavior`}>
          Change budget here
        </Link>
      ) : (
        'Change budget here'
      )}
      . Message to continue.
    </Alert>
  );
}

/** One feed row (workspace §3 items); richer views (diffs, logs) open in tabs. */
export function FeedEntryView({
  entry,
  viewerId,
  isOwn,
}: {
  entry: FeedEntry;
  viewerId: string | undefined;
  isOwn?: ((item: ConversationItem) => boolean) | undefined;
}) {
  if (entry.kind === 'shell') return <ShellGroup entry={entry} />;
  const { item } = entry;
  switch (item.item_type) {
    case 'message':
      if (item.action_type === 'sub_agent_report') return <SubAgentReport item={item} />;
      return (
        <MessageItem
          item={item}
          own={isOwn ? isOwn(item) : item.user_id !== null && item.user_id === viewerId}
        />
      );
    case 'view':
      return <ViewItem item={item} />;
    case 'edit': {
      const files = Object.keys((item.new_files as Record<string, unknown>) ?? {});
      return (
        <Line>
          Edited {files.join(', ')} (+{num(item.lines_added)} −{num(item.lines_removed)})
        </Line>
      );
    }
    case 'commit':
      return <CommitItem item={item} />;
    case 'number_lifecycle':
      return (
        <Line>
          {str(item.action) === 'opened' ? 'Opened' : 'Updated'} #{num(item.number)}{' '}
          {item.html_url ? (
            <Link href={str(item.html_url)} target="_blank" rel="noreferrer">
              {str(item.title) || str(item.html_url)}
            </Link>
          ) : null}
        </Line>
      );
    case 'over_budget':
      return <OverBudget limit={num(item.credit_limit)} />;
    case 'action':
      return <ActionItem item={item} />;
    default:
      return null;
  }
}
