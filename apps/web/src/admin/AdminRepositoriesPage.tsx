import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { AdminListTable } from './AdminListTable';
import { AdminSearchForm } from './AdminSearchForm';
import type { SortableColumn } from './SortableTableHead';
import { useAdminRepositories } from './use-admin-repositories';
import { useListParams } from './use-list-params';

const COLUMNS: SortableColumn<never>[] = [
  { sort: null, label: 'Repository' },
  { sort: null, label: 'Installation' },
  { sort: null, label: 'Added' },
  { sort: null, label: 'Agents', numeric: true },
  { sort: null, label: 'Status' },
];

/** /admin/repositories: every repository across installations, searchable (platform §7 Admin). */
export default function AdminRepositoriesPage() {
  usePageTitle('Repositories · Admin ·');
  const params = useListParams();
  const list = useAdminRepositories(params.query);
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Link component={RouterLink} to="/admin/dashboard" variant="body2">
        Back to the dashboard
      </Link>
      <Typography variant="h4" component="h1" gutterBottom sx={{ mt: 1 }}>
        Repositories
      </Typography>
      <AdminSearchForm
        name="Search repositories"
        label="Search by repository or installation"
        value={params.query.search}
        onSearch={params.search}
      />
      <AdminListTable
        label="Repositories"
        noun="repositories"
        list={list}
        page={list.data && { rows: list.data.repositories, count: list.data.count }}
        columns={COLUMNS}
        pagination={params.pagination}
        renderRow={(row) => (
          <TableRow key={row.id}>
            {/* Not a link: the repository page is for its installation's members. */}
            <TableCell>{row.full_name}</TableCell>
            <TableCell>
              {row.installation_name}{' '}
              <Typography component="span" variant="caption">
                #{row.installation_id}
              </Typography>
            </TableCell>
            <TableCell>{new Date(row.created_at).toLocaleDateString()}</TableCell>
            <TableCell align="right">{row.agents}</TableCell>
            <TableCell>
              {row.removed ? <Chip size="small" label="Removed" /> : row.private ? 'Private' : 'Public'}
            </TableCell>
          </TableRow>
        )}
      />
    </Container>
  );
}
