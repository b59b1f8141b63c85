import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { sunsetOutOfCredits } from '@tandem/shared';
import { Link as RouterLink } from 'react-router';
import { useClientConfig } from '../api/config';

/** The billing settings the out-of-credits notice links to (workspace §2 links). */
export const BILLING_PATH = '/settings#billing';

/**
 * 'Your installation is out of credits. Buy more now.' with the link to billing (workspace §8);
 * in sunset mode the shutdown version, with the link only while credits can still be bought.
 */
export function OutOfCreditsNotice(props: { onClose?: () => void }) {
  const sunset = useClientConfig().data?.sunset ?? null;
  const buyLink = (
    <Link component={RouterLink} to={BILLING_PATH}>
      Buy more now
    </Link>
  );
  if (sunset)
    return (
      <Alert severity="warning" onClose={props.onClose}>
        {sunsetOutOfCredits(sunset)}
        {sunset.credits_buyable ? <> {buyLink}.</> : null}
      </Alert>
    );
  return (
    <Alert severity="warning" onClose={props.onClose}>
      Your installation is out of credits. {buyLink}.
    </Alert>
  );
}
