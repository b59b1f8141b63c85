import Button from '@mui/material/Button';
import { formatCredits } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { useActiveInstallation } from '../auth/active-installation';
import { useCreditsRemaining } from './use-credits-remaining';

/** The active installation's credits in the header, linking to its transactions. */
export function CreditsBalance() {
  const { id } = useActiveInstallation();
  const credits = useCreditsRemaining(id);
  if (id === null || !credits.data) return null;
  const amount = formatCredits(credits.data.credits);
  return (
    <Button
      component={RouterLink}
      to={`/transactions/${id}`}
      color="inherit"
      size="small"
      aria-label={`Credits available: ${amount}. View transactions`}
      sx={{ display: { xs: 'none', sm: 'inline-flex' }, fontVariantNumeric: 'tabular-nums' }}
    >
      {amount}
    </Button>
  );
}
