import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { GIFT_CREDITS_MAX, type AdminInstallation } from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useGiftCredits } from './use-gift-credits';

/** Gift credits to one installation: an amount and an optional note for its ledger. */
export function GiftCreditsDialog(props: {
  installation: AdminInstallation | null;
  onClose: () => void;
  onGifted: (text: string) => void;
}) {
  const gift = useGiftCredits();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const credits = Number(amount);
  const valid = Number.isInteger(credits) && credits >= 1 && credits <= GIFT_CREDITS_MAX;

  const close = () => {
    setAmount('');
    setNote('');
    setProblem(null);
    props.onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!props.installation || !valid) return;
    try {
      await gift.mutateAsync({
        installation_id: props.installation.id,
        credits,
        ...(note.trim() ? { description: note.trim() } : {}),
      });
      props.onGifted(`Gifted ${credits.toLocaleString()} credits to ${props.installation.name}.`);
      close();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.serverMessage : 'Could not gift credits.');
    }
  };

  return (
    <Dialog open={props.installation !== null} onClose={close}>
      <form onSubmit={(e) => void submit(e)} aria-label="Gift credits">
        <DialogTitle>Gift credits to {props.installation?.name}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {problem ? <Alert severity="error">{problem}</Alert> : null}
            <TextField
              label="Credits"
              type="number"
              required
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              error={amount !== '' && !valid}
              helperText={`A whole number from 1 to ${GIFT_CREDITS_MAX.toLocaleString()}`}
              slotProps={{ htmlInput: { min: 1, max: GIFT_CREDITS_MAX, step: 1 } }}
            />
            <TextField
              label="Note (shown in the installation's transactions)"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 200 } }}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!valid || gift.isPending}>
            Gift
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
