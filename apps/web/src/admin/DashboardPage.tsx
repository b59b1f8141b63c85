import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  ADMIN_DASHBOARD_RANGES,
  formatCredits,
  type AdminDashboard,
  type AdminDashboardRange,
} from '@tandem/shared';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { PageSpinner } from '../layout/PageSpinner';
import { usePageTitle } from '../lib/page-title';
import { DashboardCharts } from './DashboardCharts';
import { DashboardTables } from './DashboardTables';
import { useAdminDashboard } from './use-admin-dashboard';

/** /admin/dashboard (platform §2, §7 Admin): the figures an operator checks each morning. */
export default function DashboardPage() {
  usePageTitle('Dashboard · Admin ·');
  // The range is in the URL (DESIGN.md §7), so a link or a reload shows the same figures.
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('days'));
  const days: AdminDashboardRange = (ADMIN_DASHBOARD_RANGES as readonly number[]).includes(asked)
    ? (asked as AdminDashboardRange)
    : 30;
  const dashboard = useAdminDashboard(days);
  return (
    <Container maxWidth="lg" sx={{ py: 4 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}
      >
        <Typography variant="h4" component="h1">
          Dashboard
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button component={RouterLink} to="/admin/users" variant="outlined">
            Users
          </Button>
          <Button component={RouterLink} to="/admin/installations" variant="outlined">
            Installations
          </Button>
          <Button component={RouterLink} to="/admin/repositories" variant="outlined">
            Repositories
          </Button>
        </Stack>
      </Stack>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={days}
        aria-label="Time range"
        sx={{ mb: 2 }}
        onChange={(_, value: AdminDashboardRange | null) => {
          if (value === null) return;
          setParams((current) => {
            const next = new URLSearchParams(current);
            if (value === 30) next.delete('days');
            else next.set('days', String(value));
            return next;
          });
        }}
      >
        {ADMIN_DASHBOARD_RANGES.map((range) => (
          <ToggleButton key={range} value={range}>
            {range} days
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {dashboard.isError ? <Alert severity="error">Error loading the dashboard.</Alert> : null}
      {dashboard.isPending ? <PageSpinner /> : null}
      {dashboard.data ? (
        <Box aria-busy={dashboard.isPlaceholderData}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {dashboard.data.from} to {dashboard.data.to} (UTC days)
          </Typography>
          <Figures dashboard={dashboard.data} />
          <DashboardCharts dashboard={dashboard.data} />
          <DashboardTables dashboard={dashboard.data} />
        </Box>
      ) : null}
    </Container>
  );
}

/** The headline figures, as text (each chart's numbers are also in the tables below). */
function Figures({ dashboard }: { dashboard: AdminDashboard }) {
  const t = dashboard.totals;
  const figures: [string, string][] = [
    ['Agents started', t.agents_started.toLocaleString()],
    ['Agents running now', t.agents_running.toLocaleString()],
    ['Credits spent', formatCredits(t.credits_spent)],
    ['Credits bought', formatCredits(t.credits_bought)],
    ['Active users', t.active_users.toLocaleString()],
    ['Active installations', t.active_installations.toLocaleString()],
    ['New users', t.new_users.toLocaleString()],
    [
      'Error rate',
      `${(t.error_rate * 100).toFixed(1)}% (${t.errored_agents} of ${t.agents_ran} agents that ran)`,
    ],
    ['Users', t.users.toLocaleString()],
    ['Installations', t.installations.toLocaleString()],
  ];
  return (
    <Box
      component="dl"
      aria-label="Figures"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' },
        gap: 2,
        m: 0,
        mb: 3,
      }}
    >
      {figures.map(([label, value]) => (
        <Paper key={label} variant="outlined" sx={{ p: 2 }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="h6" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}
