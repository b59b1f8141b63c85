import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useActiveInstallation } from '../auth/active-installation';
import { currentUserKey, useCurrentUser } from '../auth/current-user';
import { useBreadcrumbs } from '../layout/breadcrumbs';
import { usePageTitle } from '../lib/page-title';
import { CreateRepoDialog, type CreatedRepo } from './CreateRepoDialog';

/** Repositories list /gh (platform §2): search, Create Repo, rows to each repository's agents. */
export function RepositoriesPage() {
  usePageTitle('Repositories ·');
  const { user } = useCurrentUser();
  useBreadcrumbs([{ label: user?.username ?? '', to: '/gh' }, { label: 'Repositories' }]);
  const { id: installationId } = useActiveInstallation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const dialogOpen = params.get('openCreateRepo') === 'true';

  const setDialog = (open: boolean) => {
    const next = new URLSearchParams(params);
    if (open) next.set('openCreateRepo', 'true');
    else next.delete('openCreateRepo');
    setParams(next, { replace: true });
  };
  const onCreated = (repo: CreatedRepo) => {
    setDialog(false);
    setCreated(`${repo.repo_owner}/${repo.repo_name}`);
    void queryClient.invalidateQueries({ queryKey: currentUserKey });
  };

  const term = search.trim().toLowerCase();
  const repos = (user?.repositories ?? []).filter((name) => name.toLowerCase().includes(term));

  return (
    <Container maxWidth="md" sx={{ py: 4 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Repositories
        </Typography>
        <Button variant="contained" onClick={() => setDialog(true)}>
          Create Repo
        </Button>
      </Stack>
      {created ? (
        <Alert severity="success" sx={{ mb: 2 }} onClose={() => setCreated(null)}>
          Created {created}
        </Alert>
      ) : null}
      <TextField
        fullWidth
        label="Search repositories"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        sx={{ mb: 2 }}
      />
      {repos.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
          {term || (user?.repositories ?? []).length
            ? 'No Repositories Found'
            : 'No repositories yet: create one with Create Repo, or give the App access to one on the code host.'}
        </Typography>
      ) : (
        <List aria-label="Repositories">
          {repos.map((name) => (
            // Links inside list items: a <ul> may only hold <li> (axe "list").
            <ListItem key={name} disablePadding>
              <ListItemButton component={RouterLink} to={`/gh/${name}/agents`}>
                <ListItemText primary={name} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      <CreateRepoDialog
        open={dialogOpen}
        installationId={installationId}
        onClose={() => setDialog(false)}
        onCreated={onCreated}
      />
    </Container>
  );
}

export default RepositoriesPage;
