import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useLocation } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { LoginButton } from '../auth/LoginButton';

/** Spec texts verbatim; what it offers depends on where the reader is and whether they are signed in. */
export function NotFoundPage() {
  const { user, loading } = useCurrentUser();
  const location = useLocation();
  const inDocs = location.pathname === '/docs' || location.pathname.startsWith('/docs/');

  return (
    <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 10, px: 2 }}>
      <Typography variant="h4" component="h1">
        404: Page not found
      </Typography>
      <Typography color="text.secondary">Looks like there&apos;s nothing here :(</Typography>
      {inDocs ? (
        <Link component={RouterLink} to="/docs">
          Back to docs
        </Link>
      ) : loading ? null : user ? (
        <Link component={RouterLink} to="/agents">
          Go to agents
        </Link>
      ) : (
        <LoginButton />
      )}
    </Stack>
  );
}

export default NotFoundPage;
