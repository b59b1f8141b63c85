import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { LOG_MESSAGES } from '@tandem/shared';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { LogDetails } from '../../agents/workspace/logs/LogWindow';
import { PageSpinner } from '../../layout/PageSpinner';
import { usePageTitle } from '../../lib/page-title';
import { repoPagePath } from '../repo-path';
import { useRepositoryContext } from '../repository-context';
import { useScriptLog } from '../use-script-log';

/** `/gh/{owner}/{repo}/log/{id}`: one script run's script and output. */
export function RepositoryLogTab() {
  const { fullName } = useRepositoryContext();
  const { logId = '' } = useParams();
  const log = useScriptLog(logId);
  usePageTitle(`${log.data?.path ?? 'Log'} · ${fullName} ·`);

  let body;
  if (log.data) {
    // A log of another repository is shown under its own repository's path.
    const own = log.data.repo_name;
    if (own && own.toLowerCase() !== fullName.toLowerCase())
      return <Navigate to={repoPagePath(own, `log/${log.data.id}`)} replace />;
    body = (
      <>
        {log.isError ? <Alert severity="warning">{LOG_MESSAGES.fetchFailed}</Alert> : null}
        <LogDetails log={log.data} headingId="script-log-heading" />
      </>
    );
  } else if (log.isError) {
    body = <Alert severity="error">{LOG_MESSAGES.fetchFailed}</Alert>;
  } else {
    body = <PageSpinner />;
  }
  return (
    <Stack component="section" aria-labelledby={log.data ? 'script-log-heading' : undefined} spacing={1}>
      <Button
        component={RouterLink}
        to={repoPagePath(fullName, 'logs')}
        startIcon={<ArrowBackIcon />}
        sx={{ alignSelf: 'flex-start' }}
      >
        All logs
      </Button>
      {body}
    </Stack>
  );
}

export default RepositoryLogTab;
