import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@tandem/shared';
import { useState } from 'react';
import { Navigate, Link as RouterLink, useSearchParams } from 'react-router';
import { useCurrentUser } from '../auth/current-user';
import { PageSpinner } from '../layout/PageSpinner';
import { LeadInfoDialog } from './LeadInfoDialog';
import { useAdminUsers } from './use-admin-users';

const ROWS = [10, 25, 50, 100];
const COLUMNS = ['User', 'Email', 'Joined', 'Installations', 'Agents', 'utm_source', 'Lead'];

/** /admin/users (platform §6 Product admin): every user with utm_source, and their lead info. */
export default function AdminUsersPage() {
  const { user, loading } = useCurrentUser();
  if (loading) return <PageSpinner />;
  if (!user?.admin) return <Navigate to="/" replace />;
  return <UsersTable />;
}

function UsersTable() {
  // The URL is the list's state (DESIGN.md §7), defaults left out.
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const rowsPerPage = ROWS.includes(Number(params.get('rowsPerPage')))
    ? Number(params.get('rowsPerPage'))
    : 25;
  const search = params.get('searchTerm') ?? '';
  const [draft, setDraft] = useState(search);
  const [leadOf, setLeadOf] = useState<AdminUser | null>(null);
  const list = useAdminUsers({ page, rows_per_page: rowsPerPage, search });

  const update = (changes: Record<string, string | null>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      return next;
    });

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Link component={RouterLink} to="/admin/dashboard" variant="body2">
        Back to the dashboard
      </Link>
      <Typography variant="h4" component="h1" gutterBottom sx={{ mt: 1 }}>
        Users
      </Typography>
      <Stack
        component="form"
        role="search"
        aria-label="Search users"
        direction="row"
        spacing={1}
        sx={{ mb: 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          update({ searchTerm: draft.trim() || null, page: null });
        }}
      >
        <TextField
          label="Search by username or email"
          size="small"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <Button type="submit" variant="outlined">
          Search
        </Button>
      </Stack>
      {list.isError ? <Alert severity="error">Error loading users.</Alert> : null}
      {list.isPending ? <PageSpinner /> : null}
      {list.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Users">
              <TableHead>
                <TableRow>
                  {COLUMNS.map((label) => (
                    <TableCell
                      key={label}
                      align={label === 'Installations' || label === 'Agents' ? 'right' : 'left'}
                    >
                      {label}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {list.data.users.map((row) => (
                  <TableRow key={row.user_id}>
                    <TableCell>
                      {row.username}
                      {row.admin ? <Chip size="small" label="Admin" sx={{ ml: 1 }} /> : null}
                    </TableCell>
                    <TableCell>{row.email ?? ''}</TableCell>
                    <TableCell>{new Date(row.created_at).toLocaleDateString()}</TableCell>
                    <TableCell align="right">{row.installations}</TableCell>
                    <TableCell align="right">{row.agents}</TableCell>
                    <TableCell>{row.utm_source ?? ''}</TableCell>
                    <TableCell>
                      <Button size="small" onClick={() => setLeadOf(row)}>
                        Lead info for {row.username}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
                {list.data.users.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={COLUMNS.length}>No users found.</TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={list.data.count}
            page={page - 1}
            rowsPerPage={rowsPerPage}
            rowsPerPageOptions={ROWS}
            onPageChange={(_, next) => update({ page: next === 0 ? null : String(next + 1) })}
            onRowsPerPageChange={(event) =>
              update({ rowsPerPage: event.target.value === '25' ? null : event.target.value, page: null })
            }
          />
        </>
      ) : null}
      <LeadInfoDialog user={leadOf} onClose={() => setLeadOf(null)} />
    </Container>
  );
}
