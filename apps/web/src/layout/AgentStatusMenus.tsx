import NotificationsIcon from '@mui/icons-material/Notifications';
import Badge from '@mui/material/Badge';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { badgeLabel, useMarkAllRead, useStatusCounts } from '../agents/status-counts';
import { useTitleCount } from '../lib/page-title';
import { agentPath } from '../agents/agent-display';
import { useReadyNotifications } from '../agents/ready-notifications';
import { useUserSettings } from '../settings/use-user-settings';

interface AgentRef {
  id: string;
  title: string;
  repo_name: string | null;
}

function AgentMenu(props: {
  anchor: HTMLElement | null;
  onClose: () => void;
  agents: AgentRef[];
  empty: string;
  footer?: React.ReactNode;
}) {
  return (
    <Menu
      anchorEl={props.anchor}
      open={props.anchor !== null}
      onClose={props.onClose}
      slotProps={{ paper: { sx: { minWidth: 260, maxWidth: 380 } } }}
    >
      {props.agents.length === 0 ? (
        <MenuItem disabled>
          <Typography variant="body2">{props.empty}</Typography>
        </MenuItem>
      ) : (
        props.agents.map((agent) => (
          <MenuItem key={agent.id} component={RouterLink} to={agentPath(agent)} onClick={props.onClose}>
            <ListItemText
              primary={agent.title}
              secondary={agent.repo_name ?? undefined}
              slotProps={{ primary: { noWrap: true } }}
            />
          </MenuItem>
        ))
      )}
      {props.footer ? [<Divider key="divider" />, props.footer] : null}
    </Menu>
  );
}

/** The header's unread bell and running-agents spinner (platform §2), polled per §9. */
export function AgentStatusMenus() {
  const counts = useStatusCounts(true);
  const markAllRead = useMarkAllRead();
  const [unreadAnchor, setUnreadAnchor] = useState<HTMLElement | null>(null);
  const [runningAnchor, setRunningAnchor] = useState<HTMLElement | null>(null);
  const unread = counts.data?.unread_agents ?? [];
  const running = counts.data?.running_agents ?? [];
  useTitleCount(unread.length ? `(${badgeLabel(unread.length)})` : undefined);
  const settings = useUserSettings();
  useReadyNotifications(counts.data?.running_agents, settings.data?.notifications_enabled === true);

  return (
    <>
      {running.length ? (
        <IconButton
          aria-label={`Running agents: ${badgeLabel(running.length)}`}
          onClick={(e) => setRunningAnchor(e.currentTarget)}
        >
          <Badge badgeContent={badgeLabel(running.length)} color="primary">
            {/* Decorative: the button's label says what it is. */}
            <CircularProgress size={20} aria-hidden />
          </Badge>
        </IconButton>
      ) : null}
      <IconButton
        aria-label={`Unread agents: ${badgeLabel(unread.length)}`}
        onClick={(e) => setUnreadAnchor(e.currentTarget)}
      >
        {/* A hidden badge keeps its last count for the fade-out; hidden for good it cannot
            contradict the button's label (axe: label-content-name-mismatch after 1 → 0). */}
        <Badge
          badgeContent={unread.length ? badgeLabel(unread.length) : 0}
          color="error"
          sx={{ '& .MuiBadge-invisible': { visibility: 'hidden' } }}
        >
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <AgentMenu
        anchor={runningAnchor}
        onClose={() => setRunningAnchor(null)}
        agents={running}
        empty="No running agents"
      />
      <AgentMenu
        anchor={unreadAnchor}
        onClose={() => setUnreadAnchor(null)}
        agents={unread}
        empty="No unread messages"
        footer={
          unread.length ? (
            <MenuItem key="mark" onClick={() => void markAllRead().then(() => setUnreadAnchor(null))}>
              <Button size="small">Mark all read</Button>
            </MenuItem>
          ) : undefined
        }
      />
    </>
  );
}
