import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { formatCredits, type AdminDashboard } from '@tandem/shared';

const n = (value: number) => value.toLocaleString();
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Model spend and the daily figures as tables: the text alternative to the charts. */
export function DashboardTables({ dashboard }: { dashboard: AdminDashboard }) {
  return (
    <>
      <Typography variant="h6" component="h2" gutterBottom>
        Model spend
      </Typography>
      {/* Focusable: on a phone the table scrolls sideways, and keyboards must reach that too. */}
      <TableContainer role="region" aria-label="Model spend, scrollable" tabIndex={0} sx={{ mb: 3 }}>
        <Table size="small" aria-label="Model spend">
          <TableHead>
            <TableRow>
              <TableCell>Model</TableCell>
              <TableCell align="right">Calls</TableCell>
              <TableCell align="right">Input tokens</TableCell>
              <TableCell align="right">Cached tokens</TableCell>
              <TableCell align="right">Output tokens</TableCell>
              <TableCell align="right">Reasoning tokens</TableCell>
              <TableCell align="right">Provider cost</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {dashboard.models.map((m) => (
              <TableRow key={m.model}>
                <TableCell>{m.model}</TableCell>
                <TableCell align="right">{n(m.calls)}</TableCell>
                <TableCell align="right">{n(m.input_tokens)}</TableCell>
                <TableCell align="right">{n(m.cached_tokens)}</TableCell>
                <TableCell align="right">{n(m.output_tokens)}</TableCell>
                <TableCell align="right">{n(m.reasoning_tokens)}</TableCell>
                <TableCell align="right">{dollars(m.cost_cents)}</TableCell>
              </TableRow>
            ))}
            {dashboard.models.length === 0 ? (
              <TableRow>
                <TableCell colSpan={7}>No model calls in this range.</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="h6" component="h2" gutterBottom>
        Daily figures
      </Typography>
      <TableContainer role="region" aria-label="Daily figures, scrollable" tabIndex={0}>
        <Table size="small" aria-label="Daily figures">
          <TableHead>
            <TableRow>
              <TableCell>Day (UTC)</TableCell>
              <TableCell align="right">New users</TableCell>
              <TableCell align="right">Active users</TableCell>
              <TableCell align="right">Active installations</TableCell>
              <TableCell align="right">Agents started</TableCell>
              <TableCell align="right">Agents with errors</TableCell>
              <TableCell align="right">Credits spent</TableCell>
              <TableCell align="right">Credits bought</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {/* Newest first: today is what people look for. */}
            {[...dashboard.daily].reverse().map((d) => (
              <TableRow key={d.date}>
                <TableCell component="th" scope="row">
                  {d.date}
                </TableCell>
                <TableCell align="right">{n(d.new_users)}</TableCell>
                <TableCell align="right">{n(d.active_users)}</TableCell>
                <TableCell align="right">{n(d.active_installations)}</TableCell>
                <TableCell align="right">{n(d.agents_started)}</TableCell>
                <TableCell align="right">{n(d.errored_agents)}</TableCell>
                <TableCell align="right">{formatCredits(d.credits_spent)}</TableCell>
                <TableCell align="right">{formatCredits(d.credits_bought)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
