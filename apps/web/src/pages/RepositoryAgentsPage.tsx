import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useParams } from 'react-router';
import { AgentsManager } from '../agents/manager/AgentsManager';
import { useCurrentUser } from '../auth/current-user';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { usePageTitle } from '../lib/page-title';

/** A repository's Agents tab `/gh/{owner}/{repo}/agents`: the manager scoped to that repository. */
export function RepositoryAgentsPage() {
  const { owner = '', repo = '' } = useParams();
  const fullName = `${owner}/${repo}`;
  usePageTitle(`${fullName} · Agents ·`);
  const { user } = useCurrentUser();
  useBreadcrumbs([{ label: user?.username ?? '', to: '/gh' }, { label: fullName }, { label: 'Agents' }]);
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h4" component="h1">
        Agents
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {fullName}
      </Typography>
      <Stack sx={{ mt: 3 }}>
        <AgentsManager key={fullName} repository={fullName} />
      </Stack>
    </Container>
  );
}

export default RepositoryAgentsPage;
