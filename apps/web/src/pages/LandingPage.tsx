import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

export function LandingPage() {
  return (
    <Stack spacing={3} sx={{ alignItems: 'center', textAlign: 'center', py: 12, px: 2 }}>
      <Typography variant="h3" component="h1" sx={{ fontWeight: 700 }}>
        Tandem
      </Typography>
      <Typography variant="h6" color="text.secondary">
        AI coding agents that work on your GitHub repositories.
      </Typography>
      <Button variant="contained" size="large" component={RouterLink} to="/login">
        Login with Github
      </Button>
    </Stack>
  );
}

export default LandingPage;
