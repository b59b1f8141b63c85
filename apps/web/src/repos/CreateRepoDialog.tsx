import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { CREATE_REPO_ERRORS, CREATE_REPO_GENERIC_ERROR, repoNameError } from '@tandem/shared';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { useCreateRepo } from './use-create-repo';

export interface CreatedRepo {
  repo_owner: string;
  repo_name: string;
}

/** Create Repo (platform §5): name rules, optional description, private by default. */
export function CreateRepoDialog(props: {
  open: boolean;
  installationId: number | null;
  onClose: () => void;
  onCreated: (repo: CreatedRepo) => void;
}) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<'private' | 'public'>('private');
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const createRepo = useCreateRepo(props.installationId);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = repoNameError(name);
    setNameError(problem);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      const created = await createRepo({
        repo_name: name.trim(),
        description,
        private: visibility === 'private',
      });
      setName('');
      setDescription('');
      props.onCreated(created);
    } catch (failure) {
      setError(
        (failure instanceof ApiError && CREATE_REPO_ERRORS[failure.status]) || CREATE_REPO_GENERIC_ERROR,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="create-repo-title"
    >
      <DialogTitle id="create-repo-title">Create Repository</DialogTitle>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogContent>
          <Stack spacing={2}>
            {error ? <Alert severity="error">{error}</Alert> : null}
            <TextField
              label="Repository name"
              required
              autoFocus
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={nameError !== null}
              helperText={nameError ?? ' '}
              disabled={busy}
            />
            <TextField
              label="Description (optional)"
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              disabled={busy}
            />
            <RadioGroup
              row
              value={visibility}
              onChange={(event) => setVisibility(event.target.value as 'private' | 'public')}
            >
              <FormControlLabel value="private" control={<Radio />} label="Private" />
              <FormControlLabel value="public" control={<Radio />} label="Public" />
            </RadioGroup>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? <CircularProgress size={20} aria-label="Creating" /> : 'Create'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
