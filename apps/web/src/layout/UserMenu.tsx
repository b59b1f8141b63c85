import CheckIcon from '@mui/icons-material/Check';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { avatarColor, avatarTextColor, type User } from '@tandem/shared';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useClientConfig } from '../api/config';
import { useActiveInstallation } from '../auth/active-installation';
import { useLogout } from '../auth/current-user';

/** The admin links of platform §2, in its order. */
const ADMIN_LINKS = [
  { to: '/admin/dashboard', label: 'Dashboard' },
  { to: '/admin/task_monitor', label: 'Task Monitor' },
  { to: '/admin/agents', label: 'Agents' },
  { to: '/admin/installations', label: 'Installations' },
  { to: '/admin/blog', label: 'Blog' },
  { to: '/styleguide', label: 'Style Guide' },
];

/** The signed-in user's menu (platform §2): profile, installations, pages, admin links, logout. */
export function UserMenu({ user }: { user: User }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const logout = useLogout();
  const navigate = useNavigate();
  const config = useClientConfig();
  const { id: activeId, select } = useActiveInstallation();

  const link = (to: string, label: string): ReactNode => (
    <MenuItem key={to} component={RouterLink} to={to} onClick={close}>
      {label}
    </MenuItem>
  );

  return (
    <>
      <IconButton aria-label="Account menu" onClick={(event) => setAnchor(event.currentTarget)} size="small">
        <Avatar
          alt={user.username}
          src={config.data ? `${config.data.code_host_url}/${user.username}.png` : undefined}
          sx={{
            width: 32,
            height: 32,
            bgcolor: avatarColor(user.username),
            color: avatarTextColor(avatarColor(user.username)),
          }}
        >
          {user.username.slice(0, 1).toUpperCase()}
        </Avatar>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        slotProps={{ paper: { sx: { minWidth: 220 } } }}
      >
        <MenuItem
          component="a"
          href={config.data ? `${config.data.code_host_url}/${user.username}` : undefined}
          target="_blank"
          rel="noopener"
          onClick={close}
        >
          GitHub Profile
        </MenuItem>
        {user.installations.length > 1 && [
          <Divider key="inst-divider" />,
          <ListSubheader key="inst-header">Installation</ListSubheader>,
          ...user.installations.map((installation) => (
            <MenuItem
              key={`inst-${installation.id}`}
              selected={installation.id === activeId}
              onClick={() => {
                close();
                void select(installation.id).then(() => navigate('/'));
              }}
            >
              <ListItemIcon>
                {installation.id === activeId ? <CheckIcon fontSize="small" /> : null}
              </ListItemIcon>
              <ListItemText>{installation.name}</ListItemText>
            </MenuItem>
          )),
          <Divider key="inst-divider-end" />,
        ]}
        {link('/gh', 'Repositories')}
        {link('/docs', 'Documentation')}
        {link('/settings', 'Settings')}
        {link('/transactions', 'Transactions')}
        {user.admin && [
          <Divider key="admin-divider" />,
          <ListSubheader key="admin-header">Admin</ListSubheader>,
          ...ADMIN_LINKS.map((admin) => link(admin.to, admin.label)),
        ]}
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
        >
          Logout
        </MenuItem>
      </Menu>
    </>
  );
}
