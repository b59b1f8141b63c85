import ArchiveOutlinedIcon from '@mui/icons-material/ArchiveOutlined';
import UnarchiveOutlinedIcon from '@mui/icons-material/UnarchiveOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import { relativeTime, type AgentMetadata } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { AgentHierarchy, isActive } from '../AgentHierarchy';
import { agentPath } from '../agent-display';
import { WorkingGlyph } from '../WorkingGlyph';

export const COLUMN_COUNT = 5;

/** One agent: title link, repository, creator, last activity, unread dot, archive button (owner only). */
export function AgentRow(props: { agent: AgentMetadata; busy: boolean; onToggleArchive: () => void }) {
  const { agent } = props;
  const lastActive = new Date(agent.last_active);
  return (
    <TableRow hover>
      {/* A title never shrinks below a readable width: on a phone the table scrolls sideways. */}
      <TableCell sx={{ minWidth: '10rem' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Box
            component="span"
            role={agent.has_unread ? 'img' : undefined}
            aria-label={agent.has_unread ? 'Unread' : undefined}
            aria-hidden={agent.has_unread ? undefined : true}
            sx={{
              width: 8,
              height: 8,
              flexShrink: 0,
              borderRadius: '50%',
              bgcolor: agent.has_unread ? 'primary.main' : 'transparent',
            }}
          />
          <Link
            component={RouterLink}
            to={agentPath(agent)}
            underline="hover"
            // overflow-wrap (unlike word-break) leaves the column's minimum width alone.
            sx={{ overflowWrap: 'break-word' }}
          >
            <WorkingGlyph working={isActive(agent)} />
            {agent.title}
          </Link>
          {agent.agent_type === 'supervisor' ? (
            <Chip label="Supervisor" size="small" color="secondary" />
          ) : null}
          {agent.archived ? <Chip label="Archived" size="small" variant="outlined" /> : null}
        </Stack>
        <Box sx={{ pl: 2 }}>
          <AgentHierarchy agent={agent} dense />
        </Box>
      </TableCell>
      <TableCell>{agent.repo_name ?? '—'}</TableCell>
      <TableCell>{agent.creator_username}</TableCell>
      <TableCell>
        <span title={lastActive.toLocaleString()}>{relativeTime(lastActive)}</span>
      </TableCell>
      <TableCell align="right" padding="checkbox">
        {agent.is_own ? (
          <Tooltip title={agent.archived ? 'Unarchive' : 'Archive'}>
            <span>
              <IconButton
                aria-label={agent.archived ? 'Unarchive agent' : 'Archive agent'}
                size="small"
                disabled={props.busy}
                onClick={props.onToggleArchive}
              >
                {agent.archived ? (
                  <UnarchiveOutlinedIcon fontSize="small" />
                ) : (
                  <ArchiveOutlinedIcon fontSize="small" />
                )}
              </IconButton>
            </span>
          </Tooltip>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
