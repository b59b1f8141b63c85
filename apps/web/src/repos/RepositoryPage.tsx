import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { hasAccess } from '@tandem/shared';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { useCurrentUser } from '../auth/current-user';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { PageSpinner } from '../layout/PageSpinner';
import { NotFoundPage } from '../pages/NotFoundPage';
import { repoPagePath } from './repo-path';
import { tabOf, type RepositoryContext } from './repository-context';
import { useRepositoryAccess } from './use-repository-access';

const TAB_LABELS = { agents: 'Agents', settings: 'Settings', logs: 'Logs' } as const;

/**
 * `/gh/{owner}/{repo}/*` (platform §2): tabs Agents, Settings (write access only) and Logs over the
 * tab's page. Without an access level every sub-route is the not-found screen.
 */
export function RepositoryPage() {
  const { owner = '', repo = '' } = useParams();
  const fullName = `${owner}/${repo}`;
  const { pathname } = useLocation();
  const { user } = useCurrentUser();
  const access = useRepositoryAccess(fullName);
  const tab = tabOf(pathname, fullName);
  useBreadcrumbs([
    { label: user?.username ?? '', to: '/gh' },
    { label: fullName, to: repoPagePath(fullName) },
    { label: TAB_LABELS[tab] },
  ]);

  if (access.isPending) return <PageSpinner />;
  if (access.isError) {
    if (access.error instanceof ApiError && access.error.status === 404) return <NotFoundPage />;
    return (
      <Container maxWidth="lg" sx={{ py: 3 }}>
        <Alert severity="error">{(access.error as Error).message}</Alert>
      </Container>
    );
  }
  const level = access.data.access_level;
  const canWrite = hasAccess(level, 'write');
  if (tab === 'settings' && !canWrite) return <NotFoundPage />;
  const context: RepositoryContext = { fullName, level };

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h4" component="h1" sx={{ overflowWrap: 'anywhere' }}>
        {fullName}
      </Typography>
      <Tabs
        value={tab}
        aria-label="Repository sections"
        sx={{ borderBottom: 1, borderColor: 'divider', mt: 1, mb: 3 }}
      >
        <Tab label="Agents" value="agents" component={RouterLink} to={repoPagePath(fullName, 'agents')} />
        {canWrite ? (
          <Tab
            label="Settings"
            value="settings"
            component={RouterLink}
            to={repoPagePath(fullName, 'settings')}
          />
        ) : null}
        <Tab label="Logs" value="logs" component={RouterLink} to={repoPagePath(fullName, 'logs')} />
      </Tabs>
      <Outlet context={context} />
    </Container>
  );
}

export default RepositoryPage;
