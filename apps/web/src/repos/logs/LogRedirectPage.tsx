import Alert from '@mui/material/Alert';
import Container from '@mui/material/Container';
import { LOG_MESSAGES } from '@tandem/shared';
import { Navigate, useParams } from 'react-router';
import { PageSpinner } from '../../layout/PageSpinner';
import { repoPagePath } from '../repo-path';
import { useScriptLog } from '../use-script-log';

/** `/log/{id}` (platform §2): goes to the repository's log path once the log's repository is known. */
export function LogRedirectPage() {
  const { logId = '' } = useParams();
  const log = useScriptLog(logId);
  if (log.data?.repo_name)
    return <Navigate to={repoPagePath(log.data.repo_name, `log/${log.data.id}`)} replace />;
  if (log.isPending) return <PageSpinner />;
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Alert severity="error">{LOG_MESSAGES.fetchFailed}</Alert>
    </Container>
  );
}

export default LogRedirectPage;
