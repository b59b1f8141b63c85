import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { AdminDashboard } from '@tandem/shared';
import type { ReactNode } from 'react';

const HEIGHT = 240;
/** Ledger units (hundredths of a cent) to credits (cents). */
const credits = (units: number) => Math.round(units / 100);

/**
 * The dashboard's charts, for people who would rather look than read. Each repeats figures the
 * page also shows as text (the summary and the daily table), which is what screen readers use.
 * Only this file imports the charting library, so it stays in the dashboard's lazy chunk.
 */
export function DashboardCharts({ dashboard }: { dashboard: AdminDashboard }) {
  // Month and day only: the year is in the range heading, and short labels fit 90 days.
  const days = dashboard.daily.map((d) => d.date.slice(5));
  const xAxis = [{ scaleType: 'band' as const, data: days }];
  return (
    <Grid container spacing={2} sx={{ mb: 3 }}>
      <ChartCard title="Active users and installations">
        <LineChart
          height={HEIGHT}
          skipAnimation
          xAxis={[{ scaleType: 'point', data: days }]}
          series={[
            // Straight lines: a smoothed curve would dip below zero and between whole counts.
            { data: dashboard.daily.map((d) => d.active_users), label: 'Active users', curve: 'linear' },
            {
              data: dashboard.daily.map((d) => d.active_installations),
              label: 'Active installations',
              curve: 'linear',
            },
          ]}
        />
      </ChartCard>
      <ChartCard title="Agents started and errored">
        <BarChart
          height={HEIGHT}
          skipAnimation
          xAxis={xAxis}
          series={[
            { data: dashboard.daily.map((d) => d.agents_started), label: 'Agents started' },
            { data: dashboard.daily.map((d) => d.errored_agents), label: 'Agents with errors' },
          ]}
        />
      </ChartCard>
      <ChartCard title="Credits spent and bought">
        <BarChart
          height={HEIGHT}
          skipAnimation
          xAxis={xAxis}
          series={[
            { data: dashboard.daily.map((d) => credits(d.credits_spent)), label: 'Spent' },
            { data: dashboard.daily.map((d) => credits(d.credits_bought)), label: 'Bought' },
          ]}
        />
      </ChartCard>
      <ChartCard title="Model spend (provider cost, $)">
        {dashboard.models.length ? (
          <BarChart
            height={HEIGHT}
            skipAnimation
            layout="horizontal"
            yAxis={[{ scaleType: 'band', data: dashboard.models.map((m) => m.model), width: 120 }]}
            series={[{ data: dashboard.models.map((m) => m.cost_cents / 100), label: 'Cost ($)' }]}
          />
        ) : (
          <Box sx={{ height: HEIGHT, display: 'grid', placeItems: 'center' }}>
            <Typography color="text.secondary">No model calls in this range.</Typography>
          </Box>
        )}
      </ChartCard>
    </Grid>
  );
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Grid size={{ xs: 12, md: 6 }}>
      <Paper component="figure" variant="outlined" sx={{ m: 0, p: 2 }}>
        <Typography component="figcaption" variant="subtitle1" gutterBottom>
          {title}
        </Typography>
        {children}
      </Paper>
    </Grid>
  );
}
