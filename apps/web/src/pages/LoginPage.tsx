import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router';
import { storedLeadId } from '../tracking/stored-lead-id';
import { githubSignInUrl } from './login-path';

/** Why the code host sent the user back without a session (set by /auth/github/callback). */
const SIGN_IN_ERRORS: Record<string, string> = {
  denied: 'Sign-in was cancelled on GitHub.',
  state: 'Your sign-in session expired. Please try again.',
  code: 'GitHub did not accept the sign-in. Please try again.',
  codehost: 'GitHub could not be reached. Please try again in a moment.',
};

export function LoginPage() {
  const [params] = useSearchParams();
  const error = params.get('error');
  return (
    <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center', py: 10, px: 2 }}>
      <Typography variant="h4" component="h1">
        Sign in to Tandem
      </Typography>
      {error ? (
        <Alert severity="error">{SIGN_IN_ERRORS[error] ?? 'Sign-in failed. Please try again.'}</Alert>
      ) : null}
      {/* A full navigation, not a client route: the server redirects to the code host. */}
      <Button
        variant="contained"
        size="large"
        href={githubSignInUrl(params.get('returnUrl'), storedLeadId())}
      >
        Login with Github
      </Button>
    </Stack>
  );
}

export default LoginPage;
