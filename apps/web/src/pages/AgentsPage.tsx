import Breadcrumbs from '@mui/material/Breadcrumbs';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { useActiveInstallation } from '../auth/active-installation';

/**
 * The agents manager's frame (workspace §2: breadcrumb username → /gh, 'Agents Manager'; title
 * 'Agents'). The new-agent form and the agents table arrive with the agents UI.
 */
export function AgentsPage() {
  const { user } = useCurrentUser();
  const { installation } = useActiveInstallation();
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Breadcrumbs aria-label="breadcrumb" sx={{ mb: 2 }}>
        <Link component={RouterLink} to="/gh" underline="hover" color="inherit">
          {user?.username}
        </Link>
        <Typography color="text.primary">Agents Manager</Typography>
      </Breadcrumbs>
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
