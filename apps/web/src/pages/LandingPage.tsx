import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useClientConfig } from '../api/config';
import { useCurrentUser } from '../auth/current-user';
import { chooseLandingVariant } from '../landing/landing-variant';
import { webStorage } from '../lib/storage';

// Loaded on the first Request a Demo: a dialog with a form is most of a visitor's first page's
// MUI otherwise (issue 15).
const DemoRequestDialog = lazy(() =>
  import('../demo/DemoRequestDialog').then((m) => ({ default: m.DemoRequestDialog })),
);

export function LandingPage() {
  const [params] = useSearchParams();
  const query = params.get('landingVariant');
  const variant = useMemo(() => chooseLandingVariant(query, webStorage()), [query]);
  const claim = useClientConfig().data?.site.landing_claim;
  const { user } = useCurrentUser();
  const [demoOpen, setDemoOpen] = useState(false);
  // Mounted from the first opening on, so closing still plays its transition.
  const [demoWanted, setDemoWanted] = useState(false);
  // New Repo needs an account first; after login the repositories page opens its create dialog.
  const newRepo = '/gh?openCreateRepo=true';
  const withLogin = (to: string) => (user ? to : `/login?returnUrl=${encodeURIComponent(to)}`);

  return (
    <Stack
      spacing={3}
      sx={{ alignItems: 'center', textAlign: 'center', py: 12, px: 2 }}
      data-variant={variant}
    >
      <Typography variant="h3" component="h1" sx={{ fontWeight: 700 }}>
        AI coding agents that work on your GitHub repositories
      </Typography>
      <Typography variant="h6" color="text.secondary" sx={{ maxWidth: 720 }}>
        Tandem clones your repository into a sandbox, edits, runs your tests, commits and opens pull requests,
        while you watch and steer it in a live chat.
      </Typography>
      {claim ? <Typography color="text.secondary">Installed on {claim} repositories</Typography> : null}
      {variant === 'twobutton' ? (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button variant="contained" size="large" component={RouterLink} to={withLogin(newRepo)}>
            New Repo
          </Button>
          <Button variant="outlined" size="large" component={RouterLink} to={withLogin('/gh')}>
            Existing Repo
          </Button>
        </Stack>
      ) : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button variant="contained" size="large" component={RouterLink} to="/login">
            Login with Github
          </Button>
          <Button
            variant="outlined"
            size="large"
            onClick={() => {
              setDemoWanted(true);
              setDemoOpen(true);
            }}
          >
            Request a Demo
          </Button>
        </Stack>
      )}
      {demoWanted ? (
        <Suspense fallback={null}>
          <DemoRequestDialog open={demoOpen} onClose={() => setDemoOpen(false)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

export default LandingPage;
