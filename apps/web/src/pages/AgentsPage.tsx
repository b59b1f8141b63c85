import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { useCurrentUser } from '../auth/current-user';
import { useActiveInstallation } from '../auth/active-installation';
import { useBreadcrumbs } from '../layout/breadcrumbs';

/**
 * The agents manager's frame (workspace §2: breadcrumb username → /gh, 'Agents Manager'; title
 * 'Agents'). The new-agent form and the agents table arrive with the agents UI.
 */
export function AgentsPage() {
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
    </Container>
  );
}

export default AgentsPage;
