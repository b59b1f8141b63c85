import DeleteIcon from '@mui/icons-material/Delete';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useDeleteSecret } from '../use-delete-secret';
import { useSecrets } from '../use-secrets';
import { AddSecretForm } from './AddSecretForm';
import { ConfirmDialog } from './ConfirmDialog';
import { SECRET_UI_MESSAGES } from './secret-rules';
import { SettingsSection } from './SettingsSection';

/** Secrets: environment variables for this repository's agents; names listed, values never shown. */
export function SecretsSection(props: { fullName: string; onError: (message: string) => void }) {
  const secrets = useSecrets(props.fullName);
  const remove = useDeleteSecret(props.fullName);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = secrets.data?.secrets ?? [];

  return (
    <SettingsSection id="secrets" title="Secrets">
      <Typography variant="body2" color="text.secondary">
        Available to this repository&apos;s agents as environment variables, and scrubbed from everything they
        show.
      </Typography>
      {secrets.isError ? <Alert severity="error">{SECRET_UI_MESSAGES.fetchFailed}</Alert> : null}
      {secrets.isPending ? <CircularProgress size={24} aria-label="Loading secrets" /> : null}
      {secrets.data && list.length === 0 ? <Typography variant="body2">No secrets yet.</Typography> : null}
      {list.length ? (
        <List dense aria-label="Secrets" disablePadding>
          {list.map((secret) => (
            <ListItem
              key={secret.key}
              divider
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={`Delete ${secret.key}`}
                  onClick={() => setDeleting(secret.key)}
                >
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemText
                primary={secret.key}
                secondary={`Added ${new Date(secret.created_at).toLocaleString()}`}
                slotProps={{ primary: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      ) : null}
      <AddSecretForm fullName={props.fullName} existing={list} onError={props.onError} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting ?? ''}?`}
        text="Agents started after this will no longer have this variable. This cannot be undone."
        confirmLabel="Delete"
        destructive
        onConfirm={() => {
          if (deleting)
            remove.mutate(deleting, { onError: () => props.onError(SECRET_UI_MESSAGES.deleteFailed) });
          setDeleting(null);
        }}
        onClose={() => setDeleting(null)}
      />
    </SettingsSection>
  );
}
