import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { PAYMENT_MESSAGES, receiptEmailSchema } from '@tandem/shared';
import { useState, type KeyboardEvent } from 'react';
import type { Notify } from '../agents/manager/Notice';
import { useReceiptEmail } from './use-receipt-email';
import { useUpdateReceiptEmail } from './use-update-receipt-email';

/**
 * Email receipts (platform §4): turning on uses the account's email when known, else asks for one
 * (Enter saves, Escape cancels); turning off stores an empty address.
 */
export function ReceiptEmailToggle(props: {
  installationId: number;
  accountEmail: string | null;
  notify: Notify;
}) {
  const { notify } = props;
  const receipt = useReceiptEmail(props.installationId);
  const update = useUpdateReceiptEmail(props.installationId);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [invalid, setInvalid] = useState(false);

  const save = (email: string) =>
    update.mutate(email, {
      onSuccess: () => {
        setEditing(false);
        notify({ severity: 'success', message: PAYMENT_MESSAGES.receiptUpdated });
      },
      onError: () => notify({ severity: 'error', message: PAYMENT_MESSAGES.receiptUpdateFailed }),
    });

  const toggle = (on: boolean) => {
    if (!on) return save('');
    if (props.accountEmail) return save(props.accountEmail);
    setDraft('');
    setInvalid(false);
    setEditing(true);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setEditing(false);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const parsed = receiptEmailSchema.safeParse({ email: draft });
      if (!parsed.success) setInvalid(true);
      else save(parsed.data.email);
    }
  };

  if (receipt.isError) return <Alert severity="error">{PAYMENT_MESSAGES.receiptEmail}</Alert>;
  if (!receipt.data) return <Skeleton width={240} aria-label="Loading receipt email" />;
  const email = receipt.data.email;
  return (
    <Stack spacing={1}>
      <FormControlLabel
        control={
          <Switch
            checked={email !== '' || editing}
            onChange={(event) => toggle(event.target.checked)}
            disabled={update.isPending}
          />
        }
        label={email ? `Email receipts to ${email}` : 'Email receipts'}
      />
      {editing ? (
        <TextField
          label="Receipt email"
          size="small"
          type="email"
          autoFocus
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            setInvalid(false);
          }}
          onKeyDown={onKeyDown}
          error={invalid}
          helperText={invalid ? PAYMENT_MESSAGES.invalidEmail : 'Enter saves, Escape cancels'}
          sx={{ maxWidth: 360 }}
        />
      ) : null}
    </Stack>
  );
}
