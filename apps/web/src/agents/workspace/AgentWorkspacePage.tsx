import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PauseIcon from '@mui/icons-material/Pause';
import ArchiveIcon from '@mui/icons-material/ArchiveOutlined';
import UnarchiveIcon from '@mui/icons-material/UnarchiveOutlined';
import { apiFetch } from '../../api/client';
import { successResponseSchema } from '@tandem/shared';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useCurrentUser } from '../../auth/current-user';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { AgentSettingsBar } from './AgentSettingsBar';
import { AgentTitle } from './AgentTitle';
import { Composer } from './Composer';
import { SourcesPanel } from './SourcesPanel';
import { FeedEntryView } from './FeedItem';
import { useAgentActions, useAgentMetadata, useConversation } from './agent-api';
import { feedEntries, isWorking, unresolvedPending, type PendingMessage } from './feed-model';

/** Within this many pixels of an edge, the feed pages older items in or follows new ones. */
const EDGE_PX = 100;

/** Seeds the pending message the new-agent form handed over in the URL, then cleans the URL. */
function useSeededPending(): PendingMessage[] {
  const [params, setParams] = useSearchParams();
  const [seed] = useState<PendingMessage[]>(() => {
    const message = params.get('message');
    const eventUuid = params.get('event_uuid');
    return message !== null && eventUuid
      ? [{ event_uuid: eventUuid, message, image_count: Number(params.get('image_count') ?? 0) }]
      : [];
  });
  useEffect(() => {
    if (!['message', 'event_uuid', 'temp_title', 'image_count'].some((k) => params.has(k))) return;
    const next = new URLSearchParams(params);
    for (const key of ['message', 'event_uuid', 'temp_title', 'image_count']) next.delete(key);
    setParams(next, { replace: true });
  }, [params, setParams]);
  return seed;
}

/** The agent workspace: `/gh/{owner}/{repo}/agent/{id}`, also reached as `/agent/{id}` and `/agents/{id}`. */
export function AgentWorkspacePage() {
  const { owner, repo, agentId = '' } = useParams();
  const { user } = useCurrentUser();
  const navigate = useNavigate();
  const metadata = useAgentMetadata(agentId);
  const conversation = useConversation(agentId);
  const actions = useAgentActions(agentId);
  const seeded = useSeededPending();
  const [pending, setPending] = useState<PendingMessage[]>(seeded);
  const [pausing, setPausing] = useState(false);
  const feedRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const agent = metadata.data;
  const repoName = agent?.repo_name ?? (owner && repo ? `${owner}/${repo}` : '');
  const working = isWorking(agent?.status);

  useBreadcrumbs([
    { label: user?.username ?? '', to: '/gh' },
    { label: repoName, to: `/gh/${repoName}/agents` },
    { label: agent?.title ?? 'Agent' },
  ]);
  useEffect(() => {
    if (!working) setPausing(false);
  }, [working]);
  const latest = conversation.items.at(-1)?.timestamp;
  useEffect(() => {
    if (!latest || !agentId) return;
    void apiFetch(`/api/agent/mark-read?trajectory_id=${agentId}`, {
      method: 'POST',
      schema: successResponseSchema,
    }).catch(() => undefined);
  }, [agentId, latest]);

  const shownPending = unresolvedPending(pending, conversation.items);
  const entries = useMemo(() => feedEntries(conversation.items), [conversation.items]);
  useLayoutEffect(() => {
    const feed = feedRef.current;
    if (feed && atBottom.current) feed.scrollTop = feed.scrollHeight;
  }, [entries.length, shownPending.length]);

  const denied = metadata.error instanceof ApiError && [401, 404, 422].includes(metadata.error.status);
  if (denied) return <NotFoundPage />;
  if (!agent) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label="Loading agent" />
      </Box>
    );
  }
  if (
    agent.repo_name &&
    (owner !== agent.repo_name.split('/')[0] || repo !== agent.repo_name.split('/')[1])
  ) {
    return <Navigate replace to={`/gh/${agent.repo_name}/agent/${agent.id}`} />;
  }

  const send = async (message: string) => {
    const entry: PendingMessage = { event_uuid: null, message, image_count: 0 };
    setPending((list) => [...list, entry]);
    atBottom.current = true;
    try {
      const { event_uuid } = await actions.send({ message, images: [] });
      setPending((list) => list.map((p) => (p === entry ? { ...p, event_uuid } : p)));
    } catch (error) {
      setPending((list) => list.filter((p) => p !== entry));
      throw error;
    }
  };
  const onScroll = () => {
    const feed = feedRef.current;
    if (!feed) return;
    atBottom.current = feed.scrollHeight - feed.scrollTop - feed.clientHeight < EDGE_PX;
    if (feed.scrollTop < EDGE_PX && conversation.hasMore) void conversation.loadOlder();
  };

  return (
    <Stack sx={{ height: 'calc(100vh - 64px)', px: 2, py: 1 }} spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minHeight: 48 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <AgentTitle
            title={agent.title}
            working={working}
            canEdit={agent.is_own || Boolean(user?.admin)}
            onRename={actions.rename}
          />
        </Box>
        {working && (agent.is_own || user?.admin) ? (
          <Tooltip title="Pause">
            <span>
              <IconButton
                aria-label="Pause agent"
                disabled={pausing}
                onClick={() => {
                  setPausing(true);
                  void actions.interrupt().catch(() => setPausing(false));
                }}
              >
                {pausing ? <CircularProgress size={20} /> : <PauseIcon />}
              </IconButton>
            </span>
          </Tooltip>
        ) : null}
        {agent.is_own ? (
          <Button
            size="small"
            startIcon={agent.archived ? <UnarchiveIcon /> : <ArchiveIcon />}
            onClick={() =>
              void actions.archive(!agent.archived).then(() => {
                if (!agent.archived) navigate(`/gh/${agent.repo_name}/agents`);
              })
            }
          >
            {agent.archived ? 'Unarchive' : 'Archive'}
          </Button>
        ) : null}
      </Stack>
      <Paper
        variant="outlined"
        ref={feedRef}
        onScroll={onScroll}
        role="log"
        aria-label="Conversation"
        sx={{ flex: 1, overflowY: 'auto', p: 2 }}
      >
        <Stack spacing={1.5}>
          {conversation.loadingOlder ? <CircularProgress size={20} sx={{ alignSelf: 'center' }} /> : null}
          {entries.map((entry) => (
            <FeedEntryView key={entry.key} entry={entry} viewerId={user?.user_id} />
          ))}
          {shownPending.map((p, i) => (
            <Box
              key={`pending-${i}`}
              sx={{ alignSelf: 'flex-end', opacity: 0.7 }}
              data-testid="pending-message"
            >
              <Paper variant="outlined" sx={{ px: 1.5, py: 1 }}>
                <Typography sx={{ whiteSpace: 'pre-wrap' }}>{p.message}</Typography>
                <Typography variant="caption" color="text.secondary">
                  Sending…
                </Typography>
              </Paper>
            </Box>
          ))}
          {working ? <CircularProgress size={20} aria-label="Agent is working" /> : null}
        </Stack>
      </Paper>
      {agent.is_own || user?.admin ? (
        <Stack spacing={1}>
          <SourcesPanel agent={agent} />
          <AgentSettingsBar agent={agent} canEdit />
          <Composer agentId={agent.id} onSend={send} />
        </Stack>
      ) : null}
    </Stack>
  );
}

export default AgentWorkspacePage;
