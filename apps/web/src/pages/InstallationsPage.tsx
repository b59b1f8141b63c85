import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Installation } from '@tandem/shared';
import { useEffect, useState, type MouseEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useClientConfig } from '../api/config';
import { useActiveInstallation } from '../auth/active-installation';
import { useCurrentUser } from '../auth/current-user';
import { useSyncInstallations } from '../auth/use-sync-installations';
import { PageSpinner } from '../layout/PageSpinner';

const PERMISSIONS = ['View repository', 'Create pull requests', 'Review pull requests'];

/** Select Installation (platform §2), or the welcome screen when the user has none. */
export function InstallationsPage() {
  const { user, loading } = useCurrentUser();
  const { id: activeId, select } = useActiveInstallation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  useRefreshAfterInstall();

  if (loading || !user) return <PageSpinner />;

  const choose = async (installation: Installation) => {
    setError(null);
    try {
      await select(installation.id);
      await navigate('/');
    } catch {
      setError('Could not switch installation. Please try again.');
    }
  };
  const onAuxClick = (event: MouseEvent, installation: Installation) => {
    // Middle click: the same choice in a new tab, leaving this one as it is.
    if (event.button !== 1) return;
    event.preventDefault();
    try {
      window.localStorage.setItem('installation', String(installation.id));
    } catch {
      // the new tab falls back to the server's choice
    }
    window.open('/', '_blank', 'noopener');
  };

  if (user.installations.length === 0) return <Welcome />;

  return (
    <Container maxWidth="sm" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Select Installation
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <List>
        {user.installations.map((installation) => (
          <ListItem key={installation.id} disablePadding>
            <ListItemButton
              selected={installation.id === activeId}
              onClick={() => void choose(installation)}
              onAuxClick={(event) => onAuxClick(event, installation)}
            >
              <ListItemAvatar>
                <Avatar src={installation.avatar_url ?? undefined} alt="">
                  {installation.name.slice(0, 1).toUpperCase()}
                </Avatar>
              </ListItemAvatar>
              <ListItemText primary={installation.name} secondary={installation.role} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Container>
  );
}

function Welcome() {
  const config = useClientConfig();
  return (
    <Container maxWidth="sm" sx={{ py: 6 }}>
      <Stack spacing={3}>
        <Typography variant="h4" component="h1">
          Welcome to Tandem
        </Typography>
        <Typography>
          Install the Tandem app on your GitHub account or organisation to start using agents on your
          repositories. Tandem will be able to:
        </Typography>
        <List dense aria-label="Permissions">
          {PERMISSIONS.map((permission) => (
            <ListItem key={permission}>
              <ListItemText primary={permission} />
            </ListItem>
          ))}
        </List>
        <Button variant="contained" size="large" href={config.data?.install_url} disabled={!config.data}>
          Install Tandem
        </Button>
      </Stack>
    </Container>
  );
}

/**
 * The code host sends the user back here with `installation_id` after installing the App. The
 * webhook may still be on its way, so ask the server to re-read the user's installations now.
 */
function useRefreshAfterInstall() {
  const [params, setParams] = useSearchParams();
  const sync = useSyncInstallations();
  const installationId = params.get('installation_id');
  useEffect(() => {
    if (!installationId) return;
    let cancelled = false;
    void sync().finally(() => {
      if (cancelled) return;
      const next = new URLSearchParams(params);
      next.delete('installation_id');
      next.delete('setup_action');
      setParams(next, { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [installationId, params, sync, setParams]);
}

export default InstallationsPage;
