import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AVATAR_PALETTE } from '@tandem/shared';

/** The building blocks in both themes, for admins (App.tsx sends everyone else to /, platform §2). */
export function StyleguidePage() {
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Style guide
      </Typography>
      <Stack spacing={3}>
        <Stack direction="row" spacing={1}>
          <Button variant="contained">Contained</Button>
          <Button variant="outlined">Outlined</Button>
          <Button>Text</Button>
          <Button disabled>Disabled</Button>
        </Stack>
        <Stack direction="row" spacing={1}>
          <Chip label="open" color="success" />
          <Chip label="merged" color="secondary" />
          <Chip label="closed" color="error" />
        </Stack>
        <TextField label="Text field" helperText="Helper text" />
        <Alert severity="info">Info alert</Alert>
        <Alert severity="error">Error alert</Alert>
        <Stack direction="row" spacing={1} aria-label="Avatar palette">
          {AVATAR_PALETTE.map((colour) => (
            <div
              key={colour}
              title={colour}
              style={{ width: 24, height: 24, borderRadius: 12, background: colour }}
            />
          ))}
        </Stack>
      </Stack>
    </Container>
  );
}

export default StyleguidePage;
