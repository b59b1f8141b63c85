import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCurrentUser } from '../auth/current-user';
import { useActiveInstallation } from '../auth/active-installation';
import { AgentsManager } from '../agents/manager/AgentsManager';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { usePageTitle } from '../lib/page-title';

/**
 * The agents manager /agents (workspace §2: breadcrumb username → /gh, 'Agents Manager'; title
 * 'Agents'): the new-agent form (not for admins) above the agents table.
 */
export function AgentsPage() {
  usePageTitle('Agents ·');
  const { user } = useCurrentUser();
  const { installation } = useActiveInstallation();
  useBreadcrumbs([{ label: user?.username ?? '', to: '/gh' }, { label: 'Agents Manager' }]);
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h4" component="h1">
        Agents
      </Typography>
      {installation ? (
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          Installation: {installation.name}
        </Typography>
      ) : null}
      <Stack sx={{ mt: 3 }}>
        <AgentsManager />
      </Stack>
    </Container>
  );
}

export default AgentsPage;
