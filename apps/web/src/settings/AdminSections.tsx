import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { UsersTable } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';

/** Repositories (platform §2) with the Manage Repositories link to the code host. */
export function RepositoriesSection({ table }: { table: UsersTable }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="repositories-heading" sx={{ p: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h5" component="h2" id="repositories-heading">
          Repositories
        </Typography>
        <Button
          href={table.installation.manage_repositories_url}
          target="_blank"
          rel="noopener"
          endIcon={<OpenInNewIcon aria-hidden />}
        >
          Manage Repositories
        </Button>
      </Stack>
      {table.repositories.length === 0 ? (
        <Typography color="text.secondary">No repositories are installed yet.</Typography>
      ) : (
        <List dense aria-labelledby="repositories-heading">
          {table.repositories.map((name) => (
            <ListItem key={name} disableGutters>
              <Link component={RouterLink} to={`/gh/${name}/agents`}>
                {name}
              </Link>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}

/** Add Installation: the App's install page on the code host. */
export function AddInstallationSection({ installUrl }: { installUrl: string | undefined }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby="add-installation-heading" sx={{ p: 3 }}>
      <Typography variant="h5" component="h2" id="add-installation-heading" gutterBottom>
        Add Installation
      </Typography>
      <Typography sx={{ mb: 1.5 }}>Install Tandem on another account or organisation.</Typography>
      <Button variant="outlined" href={installUrl} disabled={!installUrl}>
        Add Installation
      </Button>
    </Paper>
  );
}
