import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PAYMENT_MESSAGES, PURCHASE_CREDITS_MAX, PURCHASE_CREDITS_MIN } from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { usePurchaseCredits } from './use-purchase-credits';

/** Whole credits within the bounds, or the message to show. */
export function creditsError(value: string): string | null {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim())) return 'Enter a whole number of credits';
  if (n < PURCHASE_CREDITS_MIN) return `Minimum ${PURCHASE_CREDITS_MIN}`;
  if (n > PURCHASE_CREDITS_MAX) return `Maximum ${PURCHASE_CREDITS_MAX}`;
  return null;
}

/** Buy credits with the default card (1 credit = 1 US cent). */
export function BuyCredits(props: { installationId: number; hasCard: boolean; onPaid: () => void }) {
  const purchase = usePurchaseCredits(props.installationId);
  const [amount, setAmount] = useState('2000');
  const [touched, setTouched] = useState(false);
  const invalid = creditsError(amount);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (invalid || !props.hasCard) return;
    // One key per click: a retried request reuses the invoice, a new click buys again.
    purchase.mutate(
      { credits: Number(amount), idempotencyKey: crypto.randomUUID() },
      { onSuccess: props.onPaid },
    );
  };

  const error = purchase.error instanceof ApiError ? purchase.error.serverMessage : purchase.error?.message;
  return (
    <Stack spacing={1} component="section" aria-labelledby="buy-credits-heading">
      <Typography variant="h6" component="h3" id="buy-credits-heading">
        Buy credits
      </Typography>
      <Stack direction="row" spacing={2} component="form" onSubmit={submit} sx={{ alignItems: 'flex-start' }}>
        <TextField
          label="Credits"
          size="small"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          onBlur={() => setTouched(true)}
          error={touched && invalid !== null}
          helperText={
            touched && invalid
              ? invalid
              : `$${(Number(amount) / 100 || 0).toFixed(2)}, charged to the default card`
          }
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <Button type="submit" variant="contained" disabled={!props.hasCard || purchase.isPending}>
          Buy credits
        </Button>
      </Stack>
      {!props.hasCard ? (
        <Typography variant="body2" color="text.secondary">
          {PAYMENT_MESSAGES.noPaymentMethod}
        </Typography>
      ) : null}
      {purchase.isError ? <Alert severity="error">{error || PAYMENT_MESSAGES.confirmation}</Alert> : null}
      {purchase.isSuccess ? (
        <Alert severity="success">
          Payment received: the credits are added as soon as the payment is confirmed.
        </Alert>
      ) : null}
    </Stack>
  );
}
