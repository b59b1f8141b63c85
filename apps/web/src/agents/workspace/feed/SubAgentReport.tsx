import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ConversationItem } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { Markdown } from '../../../lib/Markdown';
import { agentPath } from '../../agent-display';
import { safeUrl } from './github-message';

const STATUS: Record<string, { label: string; color: 'success' | 'default' | 'error' | 'warning' }> = {
  completed: { label: 'Finished', color: 'success' },
  stopped: { label: 'Stopped', color: 'default' },
  failed: { label: 'Failed', color: 'error' },
  paused: { label: 'Paused', color: 'warning' },
};

const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** A sub-agent's report in its supervisor's feed: status, summary, pull requests, a link to it. */
export function SubAgentReport({ item }: { item: ConversationItem }) {
  const id = str(item.sub_agent_id);
  const repo = str(item.repository_name) || null;
  const status = STATUS[str(item.sub_agent_status)] ?? {
    label: str(item.sub_agent_status),
    color: 'default',
  };
  const title = str(item.sub_agent_title) || 'Sub-agent';
  const pulls = (Array.isArray(item.pull_requests) ? item.pull_requests : [])
    .map((url) => safeUrl(url))
    .filter((url): url is string => url !== null);
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="sub-agent-report">
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" component="p" sx={{ fontWeight: 600, m: 0 }}>
          Report from sub-agent{' '}
          {/^[0-9a-f-]{36}$/.test(id) ? (
            <Link component={RouterLink} to={agentPath({ id, repo_name: repo })}>
              {title}
            </Link>
          ) : (
            title
          )}
          {repo ? ` in ${repo}` : ''}
        </Typography>
        <Chip size="small" label={status.label} color={status.color} />
      </Stack>
      {str(item.task_summary) ? (
        <Markdown source={str(item.task_summary)} sx={{ typography: 'body2', mt: 0.5 }} />
      ) : null}
      {pulls.length ? (
        <Stack component="ul" spacing={0.25} sx={{ m: 0, mt: 0.5, pl: 2 }} aria-label="Pull requests">
          {pulls.map((url) => (
            <Typography component="li" variant="body2" key={url}>
              <Link href={url} target="_blank" rel="noreferrer noopener">
                Pull request {url.split('/').at(-1) ? `#${url.split('/').at(-1)}` : url}
              </Link>
            </Typography>
          ))}
        </Stack>
      ) : null}
    </Paper>
  );
}
