import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useCallback, useState } from 'react';
import { useLocation } from 'react-router';
import { useCurrentUser } from '../../auth/current-user';
import { AgentsTable } from './AgentsTable';
import { NewAgentForm } from './NewAgentForm';
import { NoticeSnackbar, type Notice } from './Notice';

/**
 * The agents manager (workspace §2): a new-agent form above the agents table; admins get the admin
 * variant, without the form, listing every creator's agents. With `repository` ("owner/name") it is
 * that repository's Agents tab: only its agents, and the form starts on it. Admins open the form
 * with a New agent button (it is where they start supervisor agents; docs/decisions.md).
 */
export function AgentsManager(props: { repository?: string }) {
  const { user } = useCurrentUser();
  // A page that sent the user here may hand over its notice ('Agent archived' from the workspace).
  const handedOver = (useLocation().state as { notice?: Notice } | null)?.notice;
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(() =>
    handedOver ? { ...handedOver, key: Date.now() } : null,
  );
  const notify = useCallback((next: Notice) => setNotice({ ...next, key: Date.now() }), []);
  const [adminForm, setAdminForm] = useState(false);
  if (!user) return null;
  const showForm = !user.admin || adminForm;
  return (
    <Stack spacing={3}>
      {user.admin ? (
        <Box>
          <Button
            variant={adminForm ? 'text' : 'outlined'}
            startIcon={adminForm ? undefined : <AddIcon />}
            aria-expanded={adminForm}
            onClick={() => setAdminForm((open) => !open)}
          >
            {adminForm ? 'Hide the new-agent form' : 'New agent'}
          </Button>
        </Box>
      ) : null}
      {showForm ? <NewAgentForm user={user} repository={props.repository} notify={notify} /> : null}
      <AgentsTable repository={props.repository} admin={user.admin} notify={notify} />
      <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
    </Stack>
  );
}
