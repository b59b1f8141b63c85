import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AgentBranch } from '@tandem/shared';
import { Markdown } from '../../../lib/Markdown';
import { canCreatePr, createPrUrl } from './branch-header';

/** The branch's pull request (or its draft) and Create PR when there is none yet. */
export function DiffHeader({ branch }: { branch: AgentBranch }) {
  const pr = branch.pull_request;
  const title = pr ? pr.title : branch.draft_title;
  const body = pr ? pr.body : branch.draft_body;
  return (
    <Stack spacing={0.5} sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography
          component="h2"
          variant="subtitle1"
          sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {pr && <span>#{pr.number} </span>}
          {title || branch.branch}
        </Typography>
        {canCreatePr(branch) && (
          <Button
            variant="contained"
            size="small"
            onClick={() => window.open(createPrUrl(branch), '_blank', 'noopener')}
          >
            Create PR
          </Button>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
        {branch.repository_name}: {branch.branch} → {branch.base_branch}
        {pr ? ` · ${pr.state}` : branch.pushed ? '' : ' · not pushed yet'}
      </Typography>
      {body && (
        // Written by the agent and by others on the code host: rendered as GitHub does, sanitised.
        <Markdown source={body} sx={{ typography: 'body2', maxHeight: 160, overflow: 'auto' }} />
      )}
    </Stack>
  );
}
