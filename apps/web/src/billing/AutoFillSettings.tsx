import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AUTO_FILL_THRESHOLD_MAX, PAYMENT_MESSAGES, type AutoFillState } from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import type { Notify } from '../agents/manager/Notice';
import { creditsError } from './BuyCredits';
import { useAutoFill } from './use-auto-fill';
import { useUpdateAutoFill } from './use-update-auto-fill';

/** Auto-fill: buy `amount` credits with the default card when the balance falls below `threshold`. */
export function AutoFillSettings(props: { installationId: number; notify: Notify }) {
  const state = useAutoFill(props.installationId);
  return (
    <Stack spacing={1} component="section" aria-labelledby="auto-fill-heading">
      <Typography variant="h6" component="h3" id="auto-fill-heading">
        Auto-fill
      </Typography>
      {state.isError ? (
        <Alert severity="error">{PAYMENT_MESSAGES.autoFill}</Alert>
      ) : !state.data ? (
        <Skeleton variant="rounded" height={56} aria-label="Loading auto-fill settings" />
      ) : (
        <AutoFillForm key={JSON.stringify(state.data)} {...props} saved={state.data} />
      )}
    </Stack>
  );
}

function thresholdError(value: string): string | null {
  if (!/^\d+$/.test(value.trim())) return 'Enter a whole number of credits';
  return Number(value) > AUTO_FILL_THRESHOLD_MAX ? `Maximum ${AUTO_FILL_THRESHOLD_MAX}` : null;
}

function AutoFillForm(props: { installationId: number; notify: Notify; saved: AutoFillState }) {
  const update = useUpdateAutoFill(props.installationId);
  const [enabled, setEnabled] = useState(props.saved.enabled);
  const [threshold, setThreshold] = useState(String(props.saved.threshold));
  const [amount, setAmount] = useState(String(props.saved.amount));
  const errors = { threshold: thresholdError(threshold), amount: creditsError(amount) };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (errors.threshold || errors.amount) return;
    update.mutate(
      { enabled, threshold: Number(threshold), amount: Number(amount) },
      {
        onSuccess: () => props.notify({ severity: 'success', message: 'Auto-fill settings saved' }),
        onError: () => props.notify({ severity: 'error', message: 'Failed to save auto-fill settings' }),
      },
    );
  };

  return (
    <Stack spacing={1.5} component="form" onSubmit={submit}>
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />}
        label="Buy credits automatically"
      />
      <Stack direction="row" spacing={2}>
        <TextField
          label="When credits fall below"
          size="small"
          value={threshold}
          onChange={(event) => setThreshold(event.target.value)}
          error={errors.threshold !== null}
          helperText={errors.threshold ?? ' '}
          disabled={!enabled}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
        <TextField
          label="Buy this many credits"
          size="small"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          error={errors.amount !== null}
          helperText={errors.amount ?? ' '}
          disabled={!enabled}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
        />
      </Stack>
      {props.saved.last_error ? (
        <Alert severity="warning">
          The last auto-fill failed: {props.saved.last_error} Auto-fill tries again once these settings are
          saved.
        </Alert>
      ) : null}
      <div>
        <Button type="submit" variant="outlined" disabled={update.isPending}>
          Save auto-fill
        </Button>
      </div>
    </Stack>
  );
}
