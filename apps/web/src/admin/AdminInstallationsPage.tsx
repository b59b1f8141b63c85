import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { ADMIN_INSTALLATION_SORTS, formatCredits, type AdminInstallation } from '@tandem/shared';
import { useState } from 'react';
import { ApiError } from '../api/client';
import { usePageTitle } from '../lib/page-title';
import { useAdminInstallations } from './use-admin-installations';
import { GiftCreditsDialog } from './GiftCreditsDialog';
import { useBanInstallation } from './use-ban-installation';
import { AdminListTable } from './AdminListTable';
import { AdminSearchForm } from './AdminSearchForm';
import { useListParams, useSortParams } from './use-list-params';
import type { SortableColumn } from './SortableTableHead';

type Sort = (typeof ADMIN_INSTALLATION_SORTS)[number];
const COLUMNS: SortableColumn<Sort>[] = [
  { sort: 'name', label: 'Installation' },
  { sort: 'created_at', label: 'Created' },
  { sort: 'credits', label: 'Credits', numeric: true },
  { sort: null, label: 'Members', numeric: true },
  { sort: 'agents', label: 'Agents', numeric: true },
  { sort: null, label: 'Status' },
  { sort: null, label: 'Actions' },
];

/** /admin/installations (platform §2, §7 Admin): every installation, searchable; ban and unban. */
export default function AdminInstallationsPage() {
  usePageTitle('Installations · Admin ·');
  // The URL is the list's state (DESIGN.md §7), defaults left out.
  const listParams = useListParams();
  const { sortBy, descending, sortOn } = useSortParams(listParams, ADMIN_INSTALLATION_SORTS, 'created_at');
  const { search } = listParams.query;
  const list = useAdminInstallations({ ...listParams.query, sort_by: sortBy, descending });
  const ban = useBanInstallation();
  const [confirming, setConfirming] = useState<AdminInstallation | null>(null);
  const [gifting, setGifting] = useState<AdminInstallation | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const confirm = async () => {
    if (!confirming) return;
    const banned = confirming.banned_at === null;
    try {
      const result = await ban.mutateAsync({ installation_id: confirming.id, banned });
      setNotice({
        ok: true,
        text: banned
          ? `Banned ${confirming.name}; ${result.stopped_agents ?? 0} running agent(s) stopped.`
          : `Lifted the ban on ${confirming.name}.`,
      });
    } catch (error) {
      setNotice({
        ok: false,
        text: error instanceof ApiError ? error.serverMessage : 'Could not change the ban.',
      });
    }
    setConfirming(null);
  };

  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        Installations
      </Typography>
      <AdminSearchForm
        name="Search installations"
        label="Search by name or id"
        value={search}
        onSearch={listParams.search}
      />
      {notice ? (
        <Alert severity={notice.ok ? 'success' : 'error'} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
          {notice.text}
        </Alert>
      ) : null}
      <AdminListTable
        label="Installations"
        noun="installations"
        list={list}
        page={list.data && { rows: list.data.installations, count: list.data.count }}
        columns={COLUMNS}
        sort={{ sortBy, descending, onSort: sortOn }}
        pagination={listParams.pagination}
        renderRow={(row) => (
          <TableRow key={row.id}>
            <TableCell>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <Avatar src={row.avatar_url ?? undefined} alt="" sx={{ width: 24, height: 24 }} />
                <span>
                  {row.name}{' '}
                  <Typography component="span" variant="caption">
                    #{row.id}
                  </Typography>
                </span>
              </Stack>
            </TableCell>
            <TableCell>{new Date(row.created_at).toLocaleDateString()}</TableCell>
            <TableCell align="right">{formatCredits(row.credits)}</TableCell>
            <TableCell align="right">{row.members}</TableCell>
            <TableCell align="right">
              {row.agents}
              {row.active_agents ? ` (${row.active_agents} active)` : ''}
            </TableCell>
            <TableCell>
              {row.banned_at ? <Chip size="small" color="error" label="Banned" /> : 'Active'}
            </TableCell>
            <TableCell>
              <Stack direction="row" spacing={1}>
                <Button size="small" onClick={() => setGifting(row)}>
                  Gift credits to {row.name}
                </Button>
                <Button
                  size="small"
                  color={row.banned_at ? 'primary' : 'error'}
                  onClick={() => setConfirming(row)}
                >
                  {row.banned_at ? `Unban ${row.name}` : `Ban ${row.name}`}
                </Button>
              </Stack>
            </TableCell>
          </TableRow>
        )}
      />
      <GiftCreditsDialog
        installation={gifting}
        onClose={() => setGifting(null)}
        onGifted={(text) => setNotice({ ok: true, text })}
      />
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)}>
        <DialogTitle>{confirming?.banned_at ? 'Lift the ban?' : 'Ban this installation?'}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {confirming?.banned_at
              ? `Members of ${confirming.name} will be able to start and message agents again.`
              : `Agents of ${confirming?.name ?? ''} that are running will stop, its members will not be able to start or message agents, and its events on the code host will start nothing.`}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(null)}>Cancel</Button>
          <Button color="error" variant="contained" disabled={ban.isPending} onClick={() => void confirm()}>
            {confirming?.banned_at ? 'Unban' : 'Ban'}
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
}
