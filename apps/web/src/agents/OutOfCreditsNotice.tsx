import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router';

/** The billing settings the out-of-credits notice links to (workspace §2 links). */
export const BILLING_PATH = '/settings#billing';

/** 'Your installation is out of credits. Buy more now.' with the link to billing (workspace §8). */
export function OutOfCreditsNotice(props: { onClose?: () => void }) {
  return (
    <Alert severity="warning" onClose={props.onClose}>
      Your installation is out of credits.{' '}
      <Link component={RouterLink} to={BILLING_PATH}>
        Buy more now
      </Link>
      .
    </Alert>
  );
}
