import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CLI_CONFIG_PATH } from '@tandem/shared';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { LoginButton } from '../auth/LoginButton';
import { PageSpinner } from '../layout/PageSpinner';
import { CopyBlock } from './CopyBlock';
import { useCliToken } from './use-cli-token';

export function cliConfigFile(url: string, token: string): string {
  return `${JSON.stringify({ url, token }, null, 2)}\n`;
}

export function cliConfigCommand(url: string, token: string): string {
  const dir = CLI_CONFIG_PATH.replace(/\/[^/]+$/, '');
  return `mkdir -p ${dir} && cat > ${CLI_CONFIG_PATH} <<'EOF'\n${cliConfigFile(url, token)}EOF`;
}

/**
 * Where `tandem login` waits for the token: its one-off server on 127.0.0.1 (never another host),
 * with the random `state` it put in this page's URL so it can tell its own sign-in from a planted
 * one. Null when the page was not opened by `tandem login`, or the parameters are malformed.
 */
export function cliCallbackUrl(port: string | null, state: string | null, token: string): string | null {
  if (!port || !/^\d{4,5}$/.test(port) || Number(port) < 1024 || Number(port) > 65535) return null;
  if (!state || !/^[A-Za-z0-9_-]{16,128}$/.test(state)) return null;
  const url = new URL(`http://127.0.0.1:${port}/callback`);
  url.searchParams.set('state', state);
  url.searchParams.set('token', token);
  return url.href;
}

/** Gives the `tandem` CLI its token: from the query, or issued now for the signed-in user. */
export function CliAuthSuccessPage() {
  const [params] = useSearchParams();
  const fromQuery = params.get('token');
  const { user, loading } = useCurrentUser();
  const issued = useCliToken(user?.user_id, !fromQuery && !!user);
  const token = fromQuery ?? issued.data?.token;
  const url = window.location.origin;
  const callback = token ? cliCallbackUrl(params.get('port'), params.get('state'), token) : null;
  // Opened by `tandem login`: hand the token to it; the blocks below stay as the fallback.
  useEffect(() => {
    if (callback) window.location.assign(callback);
  }, [callback]);

  let body;
  if (token) {
    body = (
      <Stack spacing={3}>
        {callback ? (
          <Alert severity="info">
            Handing the token to <code>tandem login</code> on this computer. If your terminal does not say you
            are signed in, paste this token there:
          </Alert>
        ) : (
          <Alert severity="success">
            You are signed in to the Tandem CLI. Finish the setup with one of these:
          </Alert>
        )}
        {callback ? <CopyBlock label="token" text={token} /> : null}
        <Typography variant="h6" component="h2">
          Run this command
        </Typography>
        <CopyBlock label="config command" text={cliConfigCommand(url, token)} />
        <Typography variant="h6" component="h2">
          Or save this as {CLI_CONFIG_PATH}
        </Typography>
        <CopyBlock label="config file" text={cliConfigFile(url, token)} />
      </Stack>
    );
  } else if (loading) {
    body = <PageSpinner />;
  } else if (!user) {
    body = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography>Sign in to get a token for the CLI.</Typography>
        <LoginButton />
      </Stack>
    );
  } else if (issued.isPending) {
    // A disabled query also reads as pending, so this comes only once a user is known.
    body = <PageSpinner />;
  } else {
    body = <Alert severity="error">Could not issue a CLI token. Please reload or try again later.</Alert>;
  }

  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Tandem CLI
      </Typography>
      {body}
    </Container>
  );
}

export default CliAuthSuccessPage;
