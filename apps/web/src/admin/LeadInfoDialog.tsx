import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LEAD_INFO_EMPTY, LEAD_INFO_ERROR, type AdminUser } from '@tandem/shared';
import { useLeadInfo } from './use-lead-info';
import { UserSessionsList } from './UserSessionsList';

/** Keys ending in _at are dates (platform §5); anything that does not parse is shown as sent. */
export function leadValue(key: string, value: string): string {
  if (!key.endsWith('_at')) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** A user's lead info: the free key-value fields we tracked about how they arrived. */
export function LeadInfoDialog({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const info = useLeadInfo(user?.user_id ?? null);
  const fields = Object.entries(info.data?.fields ?? {});
  return (
    // The page scrolls, not the content: a scrolling content box would be a region keyboard users
    // cannot reach (no focusable element in it).
    <Dialog open={user !== null} onClose={onClose} fullWidth maxWidth="sm" scroll="body">
      <DialogTitle>Lead info{user ? ` for ${user.username}` : ''}</DialogTitle>
      <DialogContent>
        {info.isPending ? <CircularProgress aria-label="Loading lead information" /> : null}
        {info.isError ? <Alert severity="error">{LEAD_INFO_ERROR}</Alert> : null}
        {info.data && fields.length === 0 ? <Typography>{LEAD_INFO_EMPTY}</Typography> : null}
        {info.data && fields.length > 0 ? (
          <Table size="small" aria-label="Lead information">
            <TableBody>
              {info.data.lead_id ? (
                <TableRow>
                  <TableCell component="th" scope="row">
                    lead_id
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{info.data.lead_id}</TableCell>
                </TableRow>
              ) : null}
              {fields.map(([key, value]) => (
                <TableRow key={key}>
                  <TableCell component="th" scope="row" sx={{ wordBreak: 'break-all' }}>
                    {key}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{leadValue(key, value)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {user ? <UserSessionsList userId={user.user_id} /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
