import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AdminUser } from '@tandem/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { AdminListTable } from './AdminListTable';
import { AdminSearchForm } from './AdminSearchForm';
import { LeadInfoDialog } from './LeadInfoDialog';
import type { SortableColumn } from './SortableTableHead';
import { useAdminUsers } from './use-admin-users';
import { useListParams } from './use-list-params';

const COLUMNS: SortableColumn<never>[] = [
  { sort: null, label: 'User' },
  { sort: null, label: 'Email' },
  { sort: null, label: 'Joined' },
  { sort: null, label: 'Installations', numeric: true },
  { sort: null, label: 'Agents', numeric: true },
  { sort: null, label: 'utm_source' },
  { sort: null, label: 'Lead' },
];

/** /admin/users (platform §6 Product admin): every user with utm_source, and their lead info. */
export default function AdminUsersPage() {
  usePageTitle('Users · Admin ·');
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
      <AdminListTable
        label="Users"
        noun="users"
        list={list}
        page={list.data && { rows: list.data.users, count: list.data.count }}
        columns={COLUMNS}
        pagination={params.pagination}
        renderRow={(row) => (
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
        )}
      />
      <LeadInfoDialog user={leadOf} onClose={() => setLeadOf(null)} />
    </Container>
  );
}
