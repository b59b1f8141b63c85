import Alert from '@mui/material/Alert';
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
import { Link as RouterLink } from 'react-router';
import { PageSpinner } from '../layout/PageSpinner';
import { AdminSearchForm } from './AdminSearchForm';
import { useAdminRepositories } from './use-admin-repositories';
import { useListParams } from './use-list-params';

const COLUMNS = ['Repository', 'Installation', 'Added', 'Agents', 'Status'];

/** /admin/repositories: every repository across installations, searchable (platform §7 Admin). */
export default function AdminRepositoriesPage() {
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
      {list.isError ? <Alert severity="error">Error loading repositories.</Alert> : null}
      {list.isPending ? <PageSpinner /> : null}
      {list.data ? (
        <>
          {/* Focusable: on a phone the table scrolls sideways, and keyboards must reach that too. */}
          <TableContainer role="region" aria-label="Repositories, scrollable" tabIndex={0}>
            <Table size="small" aria-label="Repositories">
              <TableHead>
                <TableRow>
                  {COLUMNS.map((label) => (
                    <TableCell key={label} align={label === 'Agents' ? 'right' : 'left'}>
                      {label}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {list.data.repositories.map((row) => (
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
                      {row.removed ? (
                        <Chip size="small" label="Removed" />
                      ) : row.private ? (
                        'Private'
                      ) : (
                        'Public'
                      )}
                    </TableCell>
                  </TableRow>
                ))}
                {list.data.repositories.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={COLUMNS.length}>No repositories found.</TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination component="div" count={list.data.count} {...params.pagination} />
        </>
      ) : null}
    </Container>
  );
}
