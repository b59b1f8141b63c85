import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { demoEmailError, STORAGE_KEYS } from '@tandem/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useRequestDemo } from './use-request-demo';

type Phase = 'form' | 'loading' | 'success' | 'error';

/** Fields are cleared this long after closing, once the closing animation is over (platform §4). */
export const RESET_DELAY_MS = 300;

function storedLeadId(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.leadId);
  } catch {
    return null;
  }
}

export function DemoRequestDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [phase, setPhase] = useState<Phase>('form');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const resetTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(resetTimer.current), []);

  const close = () => {
    onClose();
    window.clearTimeout(resetTimer.current);
    resetTimer.current = window.setTimeout(() => {
      setPhase('form');
      setEmail('');
      setMessage('');
      setEmailError(null);
    }, RESET_DELAY_MS);
  };

  const requestDemo = useRequestDemo();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = demoEmailError(email);
    setEmailError(problem);
    if (problem) return;
    setPhase('loading');
    try {
      const result = await requestDemo({ email: email.trim(), message, lead_id: storedLeadId() });
      setPhase(result.success ? 'success' : 'error');
    } catch {
      setPhase('error');
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="demo-title">
      <DialogTitle id="demo-title">Request a Demo</DialogTitle>
      {phase === 'form' || phase === 'loading' ? (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <DialogContent>
            <Stack spacing={2}>
              <TextField
                label="Email"
                type="email"
                required
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                error={emailError !== null}
                helperText={emailError ?? ' '}
                disabled={phase === 'loading'}
                autoFocus
              />
              <TextField
                label="Message (optional)"
                multiline
                minRows={3}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
                disabled={phase === 'loading'}
              />
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={phase === 'loading'}>
              {phase === 'loading' ? <CircularProgress size={20} aria-label="Sending" /> : 'Request Demo'}
            </Button>
          </DialogActions>
        </form>
      ) : phase === 'success' ? (
        <>
          <DialogContent>
            <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
              <CheckCircleIcon color="success" sx={{ fontSize: 48 }} />
              <Typography variant="h6">Request Submitted!</Typography>
              <Typography color="text.secondary">We&apos;ll be in touch within 24 hours</Typography>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Close</Button>
          </DialogActions>
        </>
      ) : (
        <>
          <DialogContent>
            <Stack spacing={1} sx={{ textAlign: 'center', py: 2 }}>
              <Typography variant="h6">Something went wrong</Typography>
              <Typography color="text.secondary">
                We&apos;re sorry, we couldn&apos;t submit your request. Please try again.
              </Typography>
            </Stack>
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Close</Button>
            <Button variant="contained" onClick={() => setPhase('form')}>
              Try Again
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
