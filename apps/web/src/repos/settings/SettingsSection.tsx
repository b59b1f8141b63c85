import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** One titled section of the repository settings; `id` is its anchor (e.g. `#behavior`). */
export function SettingsSection(props: { id: string; title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      id={props.id}
      aria-labelledby={headingId}
      variant="outlined"
      sx={{ p: 2, scrollMarginTop: 80 }}
    >
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 2 }}>
        {props.title}
      </Typography>
      <Stack spacing={2}>{props.children}</Stack>
    </Paper>
  );
}
