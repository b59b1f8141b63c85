import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { PRODUCT_NAME, STORAGE_KEYS } from '@tandem/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { readStored, writeStored } from '../lib/storage';
import { loginPath } from '../pages/login-path';

/** Whether the dialog has been shown in this browser (platform §4: it shows once). */
export function whatsThisSeen(): boolean {
  return readStored(STORAGE_KEYS.partyAgentWhatsThis) !== null;
}

/**
 * The party page's 'What's this?' dialog (platform §4): open by itself on the first visit, then
 * only from the page's button. Anonymous visitors are offered to log in.
 */
export function WhatsThisDialog(props: {
  open: boolean;
  onClose: () => void;
  signedIn: boolean;
  repoName: string;
}) {
  const close = () => {
    writeStored(STORAGE_KEYS.partyAgentWhatsThis, 'true');
    props.onClose();
  };
  return (
    <Dialog open={props.open} onClose={close} aria-labelledby="party-whats-this-title">
      <DialogTitle id="party-whats-this-title">What&apos;s this?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          This is the party agent: one {PRODUCT_NAME} agent that everyone shares. Anyone can chat with it
          here, and it works on {props.repoName} in the open. Everything you write is public, so be kind and
          keep secrets out of it.
        </DialogContentText>
        {props.signedIn ? null : (
          <DialogContentText>
            You are not logged in, so your messages show as &lsquo;anon&rsquo;. Log in with GitHub to chat
            under your own name and to run agents on your own repositories.
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        {props.signedIn ? null : (
          <Button component={RouterLink} to={loginPath('/party')} onClick={close}>
            Login with Github
          </Button>
        )}
        <Button variant="contained" onClick={close} autoFocus>
          Got it
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The dialog's open state: open at first for a browser that has not seen it. */
export function useWhatsThis() {
  const [open, setOpen] = useState(() => !whatsThisSeen());
  return { open, show: () => setOpen(true), hide: () => setOpen(false) };
}
