import Alert from '@mui/material/Alert';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AdminSessionEvent } from '@tandem/shared';
import { useUserSessions } from './use-user-sessions';

/** What an event was about, from the fields the web app's tracker sends; anything else is left out. */
export function eventDetail(event: AdminSessionEvent): string {
  const { path, percent, target } = event.data;
  if (typeof path === 'string') return path;
  if (typeof percent === 'number') return `${percent}%${typeof target === 'string' ? ` of ${target}` : ''}`;
  return '';
}

/** A user's newest tracked events (page views, scrolling, session ends), under their lead info. */
export function UserSessionsList({ userId }: { userId: string }) {
  const sessions = useUserSessions(userId);
  if (sessions.isError) return <Alert severity="error">Failed to load tracked sessions</Alert>;
  if (!sessions.data) return null;
  return (
    <>
      <Typography variant="subtitle1" component="h3" sx={{ mt: 3, mb: 1 }}>
        Recent tracked events ({sessions.data.count.toLocaleString()} in all)
      </Typography>
      {sessions.data.events.length === 0 ? (
        <Typography color="text.secondary">No tracked events for this user.</Typography>
      ) : (
        <Table size="small" aria-label="Recent tracked events">
          <TableHead>
            <TableRow>
              <TableCell>Time</TableCell>
              <TableCell>Event</TableCell>
              <TableCell>Detail</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {sessions.data.events.map((event) => (
              <TableRow key={event.id}>
                <TableCell>{new Date(event.timestamp).toLocaleString()}</TableCell>
                <TableCell>{event.type}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{eventDetail(event)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </>
  );
}
