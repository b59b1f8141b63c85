import Alert from '@mui/material/Alert';
import { sunsetBanner } from '@tandem/shared';
import { useClientConfig } from '../api/config';
import { useCurrentUser } from '../auth/current-user';

/** Sunset mode's banner for signed-in users (platform §1 Shutdown); nothing otherwise. */
export function SunsetBanner() {
  const sunset = useClientConfig().data?.sunset ?? null;
  const { user } = useCurrentUser();
  if (!sunset || !user) return null;
  return (
    <Alert severity="warning" square role="status" aria-label="Shutdown notice">
      {sunsetBanner(sunset)}
    </Alert>
  );
}
