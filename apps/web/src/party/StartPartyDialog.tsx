import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';

/** Admins confirm before everyone on /party moves to a fresh party agent. */
export function StartPartyDialog(props: { open: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog open={props.open} onClose={props.onCancel} aria-labelledby="start-party-title">
      <DialogTitle id="start-party-title">Start a new party agent?</DialogTitle>
      <DialogContent>
        <DialogContentText>
          The current party agent is stopped and archived, and everyone on this page moves to a fresh one.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button variant="contained" onClick={props.onConfirm}>
          Start
        </Button>
      </DialogActions>
    </Dialog>
  );
}
