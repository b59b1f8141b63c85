import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { PAYMENT_MESSAGES } from '@tandem/shared';
import { useState, type FormEvent } from 'react';

const loaded = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe Elements, for real Stripe only: this module is its own lazily loaded chunk, and Stripe's
 * script (js.stripe.com) is fetched only when it renders.
 */
export default function StripeCardForm(props: {
  publishableKey: string;
  clientSecret: string;
  onConfirmed: () => void;
}) {
  let stripe = loaded.get(props.publishableKey);
  if (!stripe) {
    stripe = loadStripe(props.publishableKey);
    loaded.set(props.publishableKey, stripe);
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret: props.clientSecret }}>
      <ConfirmSetup onConfirmed={props.onConfirmed} />
    </Elements>
  );
}

function ConfirmSetup({ onConfirmed }: { onConfirmed: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setError(null);
    // No forced redirect (platform §4): only cards that need one (3-D Secure) leave the page.
    const result = await stripe.confirmSetup({
      elements,
      redirect: 'if_required',
      confirmParams: { return_url: `${window.location.origin}/settings#billing` },
    });
    setBusy(false);
    if (result.error) setError(result.error.message ?? PAYMENT_MESSAGES.confirmation);
    else onConfirmed();
  };

  return (
    <Stack component="form" spacing={2} onSubmit={(event) => void submit(event)} aria-label="Card details">
      <PaymentElement />
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Button type="submit" variant="contained" disabled={!stripe || busy}>
        Save card
      </Button>
    </Stack>
  );
}
