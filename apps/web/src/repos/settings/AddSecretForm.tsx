import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { normalizeSecretKey, type Secret } from '@tandem/shared';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useAddSecret } from '../use-add-secret';
import { ConfirmDialog } from './ConfirmDialog';
import {
  needsShortValueConfirmation,
  SECRET_KEY_INPUT_MAX,
  SECRET_UI_MESSAGES,
  SECRET_VALUE_INPUT_MAX,
  secretProblem,
} from './secret-rules';

/**
 * Adds a secret (platform §5): the name is upper-cased as it is typed, checked before sending, and a
 * value under six characters needs a confirmation about scrubbing. Add is disabled while blank.
 */
export function AddSecretForm(props: {
  fullName: string;
  existing: readonly Secret[];
  onError: (message: string) => void;
}) {
  const add = useAddSecret(props.fullName);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<{ field: 'key' | 'value'; message: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const blank = !key.trim() || !value.trim();

  const send = () => {
    setConfirming(false);
    add.mutate(
      { key: normalizeSecretKey(key), value },
      {
        onSuccess: () => {
          setKey('');
          setValue('');
        },
        onError: (error) => {
          // The server's 400s carry the spec's own texts (invalid name, duplicate).
          if (error instanceof ApiError && error.status === 400 && typeof error.detail === 'string')
            setProblem({ field: 'key', message: error.detail });
          else props.onError(SECRET_UI_MESSAGES.addFailed);
        },
      },
    );
  };

  const submit = () => {
    if (blank || add.isPending) return;
    const found = secretProblem(key, value, props.existing);
    setProblem(found);
    if (found) return;
    if (needsShortValueConfirmation(value)) setConfirming(true);
    else send();
  };

  return (
    <Stack
      component="form"
      aria-label="Add secret"
      noValidate
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      sx={{ alignItems: { md: 'flex-start' } }}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextField
        label="Name"
        size="small"
        value={key}
        error={problem?.field === 'key'}
        helperText={problem?.field === 'key' ? problem.message : 'e.g. DATABASE_URL'}
        onChange={(event) => {
          setKey(normalizeSecretKey(event.target.value));
          setProblem(null);
        }}
        slotProps={{ htmlInput: { maxLength: SECRET_KEY_INPUT_MAX, autoComplete: 'off', spellCheck: false } }}
        sx={{ flex: 1 }}
      />
      <TextField
        label="Value"
        size="small"
        type="password"
        value={value}
        error={problem?.field === 'value'}
        helperText={problem?.field === 'value' ? problem.message : 'Never shown again after you add it.'}
        onChange={(event) => {
          setValue(event.target.value);
          setProblem(null);
        }}
        slotProps={{ htmlInput: { maxLength: SECRET_VALUE_INPUT_MAX, autoComplete: 'new-password' } }}
        sx={{ flex: 2 }}
      />
      <Button type="submit" variant="contained" disabled={blank || add.isPending}>
        Add
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Add a short secret?"
        text={SECRET_UI_MESSAGES.shortValue}
        confirmLabel="Add anyway"
        onConfirm={send}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}
