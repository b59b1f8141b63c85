import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { PAYMENT_MESSAGES, type BillingClientConfig } from '@tandem/shared';
import { lazy, Suspense, useEffect, useId } from 'react';
import { LocalCardForm } from './LocalCardForm';
import { useCreateSetupIntent } from './use-create-setup-intent';

const StripeCardForm = lazy(() => import('./StripeCardForm'));

/** Add a payment method (platform §4): a setup is created, then confirmed with the card. */
export function AddCardDialog(props: {
  installationId: number;
  billing: BillingClientConfig;
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}) {
  const titleId = useId();
  const setup = useCreateSetupIntent(props.installationId);
  const { mutate, reset } = setup;
  useEffect(() => {
    if (props.open) mutate();
    else reset();
  }, [props.open, mutate, reset]);

  const secret = setup.data?.client_secret;
  const { billing } = props;
  return (
    <Dialog open={props.open} onClose={props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Add payment method</DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        {setup.isError ? (
          <Alert severity="error">{PAYMENT_MESSAGES.addError}</Alert>
        ) : !secret ? (
          <CircularProgress aria-label="Preparing the card form" />
        ) : billing.mode === 'local' && billing.local_api_url ? (
          <LocalCardForm
            localApiUrl={billing.local_api_url}
            publishableKey={billing.publishable_key}
            clientSecret={secret}
            onConfirmed={props.onAdded}
          />
        ) : (
          <Suspense fallback={<CircularProgress aria-label="Loading the card form" />}>
            <StripeCardForm
              publishableKey={billing.publishable_key}
              clientSecret={secret}
              onConfirmed={props.onAdded}
            />
          </Suspense>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
}
