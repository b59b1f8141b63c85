import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { SETTINGS_MESSAGES } from '@tandem/shared';
import type { Notify } from '../agents/manager/Notice';
import { useUpdateUserSettings } from './use-update-user-settings';
import { useUserSettings } from './use-user-settings';

/** The browser's notification permission, or null where the browser has no notifications. */
function browserPermission(): NotificationPermission | null {
  return typeof Notification === 'undefined' ? null : Notification.permission;
}

/** User Settings (platform §2): Enable Notifications and Automatic PR Creation. */
export function UserSettingsSection({ notify }: { notify: Notify }) {
  const settings = useUserSettings();
  const update = useUpdateUserSettings({
    onError: () => notify({ severity: 'error', message: SETTINGS_MESSAGES.update }),
  });

  const setNotifications = (enabled: boolean) => {
    // The choice is stored either way; the browser must also allow notifications for any to show.
    if (enabled && browserPermission() !== 'granted') {
      notify({ severity: 'info', message: SETTINGS_MESSAGES.notificationPermission });
      if (browserPermission() === 'default') void Notification.requestPermission().catch(() => undefined);
    }
    update.mutate({ notifications_enabled: enabled });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="user-settings-heading" sx={{ p: 3 }}>
      <Typography variant="h5" component="h2" id="user-settings-heading" gutterBottom>
        User Settings
      </Typography>
      {settings.isError ? (
        <Alert severity="error">{SETTINGS_MESSAGES.load}</Alert>
      ) : !settings.data ? (
        <Skeleton variant="rounded" height={72} aria-label="Loading settings" />
      ) : (
        <FormGroup>
          <FormControlLabel
            control={
              <Switch
                checked={settings.data.notifications_enabled}
                onChange={(event) => setNotifications(event.target.checked)}
              />
            }
            label="Enable Notifications"
          />
          <Typography variant="body2" color="text.secondary" sx={{ ml: 6, mt: -0.5, mb: 1 }}>
            A browser notification when an agent is ready for feedback.
          </Typography>
          <FormControlLabel
            control={
              <Switch
                checked={settings.data.auto_create_pr}
                onChange={(event) => update.mutate({ auto_create_pr: event.target.checked })}
              />
            }
            label="Automatic PR Creation"
          />
          <Typography variant="body2" color="text.secondary" sx={{ ml: 6, mt: -0.5 }}>
            Agents open a pull request by themselves when they push a new branch. When off, they push and
            leave the pull request to you unless you ask for one.
          </Typography>
        </FormGroup>
      )}
    </Paper>
  );
}
