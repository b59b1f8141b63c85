import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BILLING_MESSAGES, formatCredits, type UsersTable } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { useCreditsRemaining } from '../billing/use-credits-remaining';

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

/**
 * Billing (anchor #billing, platform §2): the credits available and the ledger. Buying credits
 * arrives with the billing issue.
 */
export function BillingSection({ installationId }: { installationId: number }) {
  const credits = useCreditsRemaining(installationId);
  return (
    <Paper
      variant="outlined"
      component="section"
      id="billing"
      aria-labelledby="billing-heading"
      sx={{ p: 3, scrollMarginTop: 16 }}
    >
      <Typography variant="h5" component="h2" id="billing-heading" gutterBottom>
        Billing
      </Typography>
      {credits.isError ? (
        <Alert severity="error">{BILLING_MESSAGES.credits}</Alert>
      ) : credits.data ? (
        <Typography>
          Credits available:{' '}
          <strong data-testid="credits-available">{formatCredits(credits.data.credits)}</strong>
        </Typography>
      ) : (
        <Skeleton width={200} aria-label="Loading credits" />
      )}
      <Link
        component={RouterLink}
        to={`/transactions/${installationId}`}
        sx={{ display: 'inline-block', mt: 1 }}
      >
        View transactions
      </Link>
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
