import Alert from '@mui/material/Alert';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BILLING_MESSAGES, formatCredits, SUNSET_NO_PURCHASES, sunsetAllowsBuying } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { Notify } from '../agents/manager/Notice';
import { useClientConfig } from '../api/config';
import { useCurrentUser } from '../auth/current-user';
import { AutoFillSettings } from './AutoFillSettings';
import { BuyCredits } from './BuyCredits';
import { PaymentMethods } from './PaymentMethods';
import { ReceiptEmailToggle } from './ReceiptEmailToggle';
import { useCreditsRemaining } from './use-credits-remaining';
import { usePaymentMethods } from './use-payment-methods';

/** How often, and how long, the balance is asked for while a paid purchase is being confirmed. */
const CONFIRM_POLL_MS = 1000;
const CONFIRM_WAIT_MS = 30_000;

/**
 * Billing (anchor #billing, platform §2): credits available, payment methods, buying credits,
 * email receipts and auto-fill. Installation admins only (the settings page shows it to them).
 */
export function BillingSection({ installationId, notify }: { installationId: number; notify: Notify }) {
  const [awaiting, setAwaiting] = useState<{ from: number; since: number } | null>(null);
  const credits = useCreditsRemaining(installationId, { pollMs: awaiting ? CONFIRM_POLL_MS : false });
  const methods = usePaymentMethods(installationId);
  const config = useClientConfig();
  const { user } = useCurrentUser();
  const balance = credits.data?.credits;

  useEffect(() => {
    if (!awaiting || balance === undefined) return;
    if (balance !== awaiting.from) {
      setAwaiting(null);
      notify({ severity: 'success', message: 'Credits added' });
    } else if (Date.now() - awaiting.since > CONFIRM_WAIT_MS) setAwaiting(null);
  }, [awaiting, balance, notify]);

  return (
    <Paper
      variant="outlined"
      component="section"
      id="billing"
      aria-labelledby="billing-heading"
      sx={{ p: 3, scrollMarginTop: 16 }}
    >
      <Typography variant="h5" component="h2" id="billing-heading" gutterBottom>
        Billing
      </Typography>
      <Stack spacing={3}>
        <div>
          {credits.isError ? (
            <Alert severity="error">{BILLING_MESSAGES.credits}</Alert>
          ) : balance !== undefined ? (
            <Typography>
              Credits available: <strong data-testid="credits-available">{formatCredits(balance)}</strong>
            </Typography>
          ) : (
            <Skeleton width={200} aria-label="Loading credits" />
          )}
          <Link
            component={RouterLink}
            to={`/transactions/${installationId}`}
            sx={{ display: 'inline-block', mt: 1 }}
          >
            View transactions
          </Link>
        </div>
        <Divider />
        <PaymentMethods
          installationId={installationId}
          billing={config.data?.billing ?? null}
          notify={notify}
        />
        {sunsetAllowsBuying(config.data?.sunset ?? null) ? (
          <BuyCredits
            installationId={installationId}
            hasCard={Boolean(methods.data?.default_method)}
            onPaid={() => setAwaiting({ from: balance ?? 0, since: Date.now() })}
          />
        ) : (
          <Alert severity="info">{SUNSET_NO_PURCHASES}</Alert>
        )}
        <Divider />
        <Stack spacing={1} component="section" aria-labelledby="receipts-heading">
          <Typography variant="h6" component="h3" id="receipts-heading">
            Receipts
          </Typography>
          <ReceiptEmailToggle
            installationId={installationId}
            accountEmail={user?.email ?? null}
            notify={notify}
          />
        </Stack>
        <AutoFillSettings installationId={installationId} notify={notify} />
      </Stack>
    </Paper>
  );
}
