import DeleteIcon from '@mui/icons-material/Delete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import IconButton from '@mui/material/IconButton';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { visuallyHidden } from '@mui/utils';
import {
  avatarColor,
  avatarTextColor,
  SETTINGS_MESSAGES,
  type InstallationRole,
  type InstallationUser,
  type UsersTable,
} from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import type { Notify } from '../agents/manager/Notice';
import { useUpdateInstallationUser } from './use-update-installation-user';

/** The §8 text, with the server's reason when it gave one the user can act on. */
function failureMessage(error: unknown): string {
  if (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.serverMessage !== error.message
  )
    return `${SETTINGS_MESSAGES.usersUpdate} ${error.serverMessage}`;
  return SETTINGS_MESSAGES.usersUpdate;
}

function UserAvatar({ user, codeHostUrl }: { user: InstallationUser; codeHostUrl: string | undefined }) {
  const color = avatarColor(user.username);
  return (
    <Avatar
      alt=""
      src={user.avatar_url ?? (codeHostUrl ? `${codeHostUrl}/${user.username}.png` : undefined)}
      sx={{ width: 32, height: 32, bgcolor: color, color: avatarTextColor(color) }}
    >
      {user.username.slice(0, 1).toUpperCase()}
    </Avatar>
  );
}

/** Users (platform §2, §5): avatar, username, role; add, change role, remove; one's own row locked. */
export function UsersSection(props: {
  installationId: number;
  table: UsersTable;
  currentUserId: string;
  codeHostUrl: string | undefined;
  notify: Notify;
}) {
  const update = useUpdateInstallationUser(props.installationId);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<InstallationRole>('member');

  const change = (target: string, next: InstallationRole | null, done?: () => void) =>
    update.mutate(
      { username: target, role: next },
      {
        onSuccess: () => {
          done?.();
          props.notify({
            severity: 'success',
            message:
              next === null
                ? `Removed ${target}`
                : `${target} is now ${next === 'admin' ? 'an admin' : 'a member'}`,
          });
        },
        onError: (error) => props.notify({ severity: 'error', message: failureMessage(error) }),
      },
    );

  const add = (event: FormEvent) => {
    event.preventDefault();
    const name = username.trim();
    if (!name) return;
    change(name, role, () => {
      setUsername('');
      setRole('member');
    });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="users-heading" sx={{ p: 3 }}>
      <Typography variant="h5" component="h2" id="users-heading" gutterBottom>
        Users
      </Typography>
      <Table size="small" aria-labelledby="users-heading">
        <TableHead>
          <TableRow>
            <TableCell>User</TableCell>
            <TableCell>Role</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.table.users.map((user) => {
            const own = user.user_id === props.currentUserId;
            return (
              <TableRow key={user.user_id} data-username={user.username}>
                <TableCell>
                  <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                    <UserAvatar user={user} codeHostUrl={props.codeHostUrl} />
                    <span>
                      {user.username}
                      {own ? ' (you)' : ''}
                    </span>
                    {user.utm_source ? (
                      <Typography variant="caption" color="text.secondary">
                        via {user.utm_source}
                      </Typography>
                    ) : null}
                  </Stack>
                </TableCell>
                <TableCell>
                  {own ? (
                    <Tooltip title="You cannot change your own role">
                      <span>{user.role === 'admin' ? 'Admin' : 'Member'}</span>
                    </Tooltip>
                  ) : (
                    <Select
                      size="small"
                      value={user.role}
                      inputProps={{ 'aria-label': `Role of ${user.username}` }}
                      disabled={update.isPending}
                      onChange={(event) => change(user.username, event.target.value as InstallationRole)}
                    >
                      <MenuItem value="admin">Admin</MenuItem>
                      <MenuItem value="member">Member</MenuItem>
                    </Select>
                  )}
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={own ? 'You cannot remove yourself' : `Remove ${user.username}`}>
                    <span>
                      <IconButton
                        aria-label={`Remove ${user.username}`}
                        disabled={own || update.isPending}
                        onClick={() => change(user.username, null)}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <Stack
        component="form"
        aria-label="Add user"
        onSubmit={add}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1.5}
        sx={{ mt: 2, alignItems: { sm: 'center' } }}
      >
        <TextField
          size="small"
          label="Username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 39, autoComplete: 'off', spellCheck: false } }}
        />
        <FormControl size="small" sx={{ minWidth: 130 }}>
          <InputLabel id="add-user-role-label">Role</InputLabel>
          <Select
            labelId="add-user-role-label"
            label="Role"
            value={role}
            onChange={(event) => setRole(event.target.value as InstallationRole)}
          >
            <MenuItem value="member">Member</MenuItem>
            <MenuItem value="admin">Admin</MenuItem>
          </Select>
        </FormControl>
        <Button type="submit" variant="contained" disabled={!username.trim() || update.isPending}>
          Add User
        </Button>
      </Stack>
    </Paper>
  );
}
