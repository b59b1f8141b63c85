import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { AgentRow, COLUMN_COUNT } from './AgentRow';
import { AgentsToolbar } from './AgentsToolbar';
import { agentListsKey, useAgentList, type AgentListRequest } from './agents-api';
import { pageIndex, PAGINATION_MIN_COUNT, ROWS_PER_PAGE_OPTIONS } from './list-params';
import type { Notify } from './Notice';
import { useArchiveToggle } from './use-archive';
import { useListState } from './use-list-state';

/** Browser events other parts of the app send to the list (workspace §7). */
export const TABLE_REFRESH_EVENT = 'agents-table-refresh';
export const TABLE_RESET_EVENT = 'agents-table-reset';

/**
 * The agents table (workspace §2, §4, §9): search, quick filters and order; state in the URL;
 * polled every 10 s; paginated from 10 agents on.
 */
export function AgentsTable(props: { repository?: string | undefined; admin: boolean; notify: Notify }) {
  const state = useListState(props.admin);
  const request: AgentListRequest = {
    repository: props.repository,
    params: state.params,
    order: state.order,
    admin: props.admin,
  };
  const query = useAgentList(request);
  const archive = useArchiveToggle(request, props.notify);
  const queryClient = useQueryClient();
  const { reset } = state;

  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: agentListsKey });
    window.addEventListener(TABLE_REFRESH_EVENT, refresh);
    window.addEventListener(TABLE_RESET_EVENT, reset);
    return () => {
      window.removeEventListener(TABLE_REFRESH_EVENT, refresh);
      window.removeEventListener(TABLE_RESET_EVENT, reset);
    };
  }, [queryClient, reset]);

  const agents = query.data?.agents ?? [];
  const count = query.data?.count ?? 0;

  return (
    <Stack spacing={2}>
      <AgentsToolbar
        search={state.draft}
        onSearchChange={state.setDraft}
        onSearchNow={state.setSearchNow}
        order={state.order}
        onOrderChange={state.setOrder}
      />
      {query.isError ? <Alert severity="error">{query.error.message}</Alert> : null}
      <TableContainer component={Paper} variant="outlined">
        {/* While another page or search loads, the previous rows stay, marked as busy. */}
        {query.isPlaceholderData ? <LinearProgress aria-label="Loading agents" /> : null}
        <Table aria-label="Agents" aria-busy={query.isPlaceholderData} size="small">
          <TableHead>
            <TableRow>
              <TableCell>Title</TableCell>
              <TableCell>Repository</TableCell>
              <TableCell>Creator</TableCell>
              <TableCell>Last active</TableCell>
              <TableCell padding="checkbox" />
            </TableRow>
          </TableHead>
          <TableBody>
            {query.isPending ? (
              <TableRow>
                <TableCell colSpan={COLUMN_COUNT} align="center" sx={{ py: 4 }}>
                  <CircularProgress size={28} aria-label="Loading agents" />
                </TableCell>
              </TableRow>
            ) : agents.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMN_COUNT} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  No Agents Found
                </TableCell>
              </TableRow>
            ) : (
              agents.map((agent) => (
                <AgentRow
                  key={agent.id}
                  agent={agent}
                  busy={archive.busy === agent.id}
                  onToggleArchive={() => void archive.toggle(agent)}
                />
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {count >= PAGINATION_MIN_COUNT ? (
        <TablePagination
          component="div"
          count={count}
          page={pageIndex(state.params, count)}
          rowsPerPage={state.params.rowsPerPage}
          rowsPerPageOptions={[...ROWS_PER_PAGE_OPTIONS]}
          onPageChange={(_event, page) => state.setPage(page + 1)}
          onRowsPerPageChange={(event) => state.setRowsPerPage(Number(event.target.value))}
        />
      ) : null}
    </Stack>
  );
}
