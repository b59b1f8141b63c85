import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PAYMENT_MESSAGES } from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import { confirmLocalCard } from './local-card';

/**
 * The card form of the local billing stand-in (no Stripe keys configured): it takes Stripe's test
 * card numbers and confirms the setup at the stand-in, as Stripe Elements would at Stripe.
 */
export function LocalCardForm(props: {
  localApiUrl: string;
  publishableKey: string;
  clientSecret: string;
  onConfirmed: () => void;
}) {
  const [card, setCard] = useState({ number: '', expMonth: '', expYear: '', cvc: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (key: keyof typeof card) => ({
    value: card[key],
    onChange: (event: { target: { value: string } }) => setCard({ ...card, [key]: event.target.value }),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await confirmLocalCard(props, props.clientSecret, card);
    setBusy(false);
    if (result.ok) props.onConfirmed();
    else setError(result.message || PAYMENT_MESSAGES.confirmation);
  };

  return (
    <Stack component="form" spacing={2} onSubmit={(event) => void submit(event)} aria-label="Card details">
      <Typography variant="body2" color="text.secondary">
        Local billing: no money moves. Use a Stripe test card such as 4242 4242 4242 4242 (succeeds) or 4000
        0000 0000 0002 (declined).
      </Typography>
      <TextField
        label="Card number"
        required
        autoFocus
        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-number', maxLength: 23 } }}
        {...field('number')}
      />
      <Stack direction="row" spacing={2}>
        <TextField
          label="Expiry month"
          required
          placeholder="MM"
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-exp-month', maxLength: 2 } }}
          {...field('expMonth')}
        />
        <TextField
          label="Expiry year"
          required
          placeholder="YYYY"
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-exp-year', maxLength: 4 } }}
          {...field('expYear')}
        />
        <TextField
          label="CVC"
          required
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'cc-csc', maxLength: 4 } }}
          {...field('cvc')}
        />
      </Stack>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Button type="submit" variant="contained" disabled={busy}>
        Save card
      </Button>
    </Stack>
  );
}
