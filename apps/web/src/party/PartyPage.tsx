import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import {
  anonymousName,
  PARTY_OFF_MESSAGE,
  STORAGE_KEYS,
  type ConversationItem,
  type PartyAgent,
} from '@tandem/shared';
import { useCallback, useMemo, useState } from 'react';
import { ApiError } from '../api/client';
import { useCurrentUser } from '../auth/current-user';
import { AgentWorkspacePage, type PartyWorkspace } from '../agents/workspace/AgentWorkspacePage';
import { ReaderHeadersContext } from '../agents/workspace/reader-auth';
import { readStored } from '../lib/storage';
import { usePageTitle } from '../lib/page-title';
import { usePartyAgent } from './use-party-agent';
import { usePartyToken } from './use-party-token';
import { useSendPartyMessage } from './use-send-party-message';
import { useStartPartyAgent } from './use-start-party-agent';
import { useWhatsThis, WhatsThisDialog } from './WhatsThisDialog';
import { StartPartyDialog } from './StartPartyDialog';

function Centered(props: { children: React.ReactNode }) {
  return <Box sx={{ display: 'flex', justifyContent: 'center', py: 8, px: 2 }}>{props.children}</Box>;
}

/** Platform §8 'Error: {message}', with the server's own words when it gave some. */
function errorText(error: unknown): string {
  return `Error: ${error instanceof ApiError ? error.serverMessage : String(error)}`;
}

/**
 * /party (platform §2, §6): the deployment's public shared agent in the agent workspace, in party
 * mode. Anonymous visitors read it with a read-only token and chat under their lead; signed-in
 * people under their own name; admins may start a fresh one.
 */
export default function PartyPage() {
  const { user, loading } = useCurrentUser();
  const party = usePartyAgent();
  usePageTitle('Party ·');
  if (party.error) {
    const off = party.error instanceof ApiError && party.error.status === 404;
    return (
      <Centered>
        {off ? (
          <Stack spacing={1} sx={{ maxWidth: 560, textAlign: 'center' }} component="section">
            <Typography variant="h5" component="h1">
              No party agent on this deployment
            </Typography>
            <Typography color="text.secondary">{PARTY_OFF_MESSAGE}</Typography>
          </Stack>
        ) : (
          <Alert severity="error">{errorText(party.error)}</Alert>
        )}
      </Centered>
    );
  }
  if (!party.data || loading) {
    return (
      <Centered>
        <CircularProgress aria-label="Loading the party agent" />
      </Centered>
    );
  }
  return (
    <PartyWorkspaceView
      party={party.data}
      signedIn={user !== null}
      admin={Boolean(user?.admin)}
      userId={user?.user_id ?? null}
    />
  );
}

function PartyWorkspaceView(props: {
  party: PartyAgent;
  signedIn: boolean;
  admin: boolean;
  userId: string | null;
}) {
  const { party, signedIn, admin, userId } = props;
  const token = usePartyToken(party.agent_id, !signedIn);
  const headers = useMemo(
    () => (token.data ? { authorization: `Bearer ${token.data.auth_token}` } : undefined),
    [token.data],
  );
  const [lead, setLead] = useState(() => readStored(STORAGE_KEYS.leadId));
  const sender = useSendPartyMessage({ signedIn, onLead: setLead });
  const start = useStartPartyAgent();
  const whatsThis = useWhatsThis();
  const [confirming, setConfirming] = useState(false);

  // Workspace §6: a visitor's own messages are theirs by lead (shown as 'anon-' and 6
  // characters); a signed-in viewer's by user id, except visitors' messages, which the server
  // stores on the party agent's creator.
  const isOwn = useCallback(
    (item: ConversationItem) =>
      signedIn
        ? item.user_id === userId && item.party_sender !== 'visitor'
        : item.party_sender === 'visitor' && lead !== null && item.username === anonymousName(lead),
    [signedIn, userId, lead],
  );
  const workspace: PartyWorkspace = useMemo(
    () => ({
      agentId: party.agent_id,
      send: (message: string) => sender.mutateAsync(message),
      isOwn,
      maxMessageChars: party.max_message_chars,
    }),
    [party.agent_id, party.max_message_chars, sender, isOwn],
  );

  if (!signedIn && token.error) {
    return (
      <Centered>
        <Alert severity="error">{errorText(token.error)}</Alert>
      </Centered>
    );
  }
  if (!signedIn && !headers) {
    return (
      <Centered>
        <CircularProgress aria-label="Loading the party agent" />
      </Centered>
    );
  }
  return (
    <Stack sx={{ height: 'calc(100dvh - 64px)' }}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ px: 2, pt: 1, alignItems: 'center', flexWrap: 'wrap' }}
        component="section"
        aria-label="Party agent"
      >
        <Typography variant="h6" component="h1" sx={{ mr: 1 }}>
          Party agent
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          Everyone chats with this agent on {party.repo_name}. Messages are public.
        </Typography>
        <Button size="small" startIcon={<HelpOutlineIcon />} onClick={whatsThis.show}>
          What&apos;s this?
        </Button>
        {admin ? (
          <Button
            size="small"
            variant="outlined"
            startIcon={start.isPending ? <CircularProgress size={16} /> : <RestartAltIcon />}
            disabled={start.isPending}
            onClick={() => setConfirming(true)}
          >
            Start a new party agent
          </Button>
        ) : null}
      </Stack>
      {start.error ? (
        <Alert severity="error" sx={{ mx: 2, mt: 1 }}>
          {errorText(start.error)}
        </Alert>
      ) : null}
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <ReaderHeadersContext.Provider value={headers}>
          <AgentWorkspacePage party={workspace} />
        </ReaderHeadersContext.Provider>
      </Box>
      <StartPartyDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          start.mutate();
        }}
      />
      <WhatsThisDialog
        open={whatsThis.open}
        onClose={whatsThis.hide}
        signedIn={signedIn}
        repoName={party.repo_name}
      />
    </Stack>
  );
}
