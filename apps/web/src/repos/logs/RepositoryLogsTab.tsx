import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LOG_MESSAGES, relativeTime, SCRIPT_LOG_PAGE_SIZE, type ScriptLogSummary } from '@tandem/shared';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageSpinner } from '../../layout/PageSpinner';
import { usePageTitle } from '../../lib/page-title';
import { repoPagePath } from '../repo-path';
import { useRepositoryContext } from '../repository-context';
import { useScriptLogs } from '../use-script-logs';

const FETCH_FAILED = 'There was an error fetching the logs. Please reload or try again later.';

/** Success or failure at a glance, with a name for screen readers. */
export function LogStatusIcon({ statusCode }: { statusCode: number | null }) {
  if (statusCode === null)
    return <HourglassEmptyIcon titleAccess="Running" fontSize="small" color="action" />;
  if (statusCode === 0) return <CheckCircleIcon titleAccess="Succeeded" fontSize="small" color="success" />;
  return <ErrorIcon titleAccess={`Failed (exit ${statusCode})`} fontSize="small" color="error" />;
}

function LogRow({ log }: { log: ScriptLogSummary }) {
  return (
    <TableRow hover>
      <TableCell sx={{ width: 48 }}>
        <LogStatusIcon statusCode={log.status_code} />
      </TableCell>
      <TableCell>
        <Link
          component={RouterLink}
          to={repoPagePath(log.repo_name, `log/${log.id}`)}
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {log.path}
        </Link>
      </TableCell>
      <TableCell>
        <time dateTime={log.started_at} title={new Date(log.started_at).toLocaleString()}>
          {relativeTime(log.started_at)}
        </time>
      </TableCell>
      <TableCell>
        {log.trajectory_id ? (
          <Link component={RouterLink} to={repoPagePath(log.repo_name, `agent/${log.trajectory_id}`)}>
            Agent
          </Link>
        ) : null}
      </TableCell>
    </TableRow>
  );
}

/** `/gh/{owner}/{repo}/logs` (platform §2): every script run, newest first, 25 a page (`?page=`). */
export function RepositoryLogsTab() {
  const { fullName } = useRepositoryContext();
  usePageTitle(`${fullName} · Logs ·`);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const logs = useScriptLogs(fullName, page);

  if (logs.isError) return <Alert severity="error">{FETCH_FAILED}</Alert>;
  if (!logs.data) return <PageSpinner />;
  if (logs.data.total === 0) return <Typography>{LOG_MESSAGES.empty}</Typography>;
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label="Script logs">
          <TableHead>
            <TableRow>
              <TableCell>Status</TableCell>
              <TableCell>Script</TableCell>
              <TableCell>Started</TableCell>
              <TableCell>Agent</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {logs.data.logs.map((log) => (
              <LogRow key={log.id} log={log} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={logs.data.total}
        page={page - 1}
        rowsPerPage={SCRIPT_LOG_PAGE_SIZE}
        rowsPerPageOptions={[SCRIPT_LOG_PAGE_SIZE]}
        onPageChange={(_event, next) => setParams(next ? { page: String(next + 1) } : {})}
      />
    </Paper>
  );
}

export default RepositoryLogsTab;
