import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@tandem/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../layout/PageSpinner';
import { AdminSearchForm } from './AdminSearchForm';
import { LeadInfoDialog } from './LeadInfoDialog';
import { useAdminUsers } from './use-admin-users';
import { useListParams } from './use-list-params';

const COLUMNS = ['User', 'Email', 'Joined', 'Installations', 'Agents', 'utm_source', 'Lead'];

/** /admin/users (platform §6 Product admin): every user with utm_source, and their lead info. */
export default function AdminUsersPage() {
  const params = useListParams();
  const [leadOf, setLeadOf] = useState<AdminUser | null>(null);
  const list = useAdminUsers(params.query);

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Link component={RouterLink} to="/admin/dashboard" variant="body2">
        Back to the dashboard
      </Link>
      <Typography variant="h4" component="h1" gutterBottom sx={{ mt: 1 }}>
        Users
      </Typography>
      <AdminSearchForm
        name="Search users"
        label="Search by username or email"
        value={params.query.search}
        onSearch={params.search}
      />
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
          <TablePagination component="div" count={list.data.count} {...params.pagination} />
        </>
      ) : null}
      <LeadInfoDialog user={leadOf} onClose={() => setLeadOf(null)} />
    </Container>
  );
}
