import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import Paper from '@mui/material/Paper';
import useMediaQuery from '@mui/material/useMediaQuery';
import TabIcon from '@mui/icons-material/Tab';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Alert from '@mui/material/Alert';
import { DEFAULT_AGENT_TITLE, type ConversationItem } from '@tandem/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useCurrentUser } from '../../auth/current-user';
import { useBreadcrumbs } from '../../layout/breadcrumbs';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { AgentSettingsBar } from './AgentSettingsBar';
import { AgentTopBar } from './AgentTopBar';
import { workspacePermissions } from './permissions';
import { useAutoOpenDiff, withCurrentDiffTitles } from './auto-open-diff';
import { NoticeSnackbar, type Notice } from '../manager/Notice';
import type { ImageAttachment } from '../manager/image-files';
import { AddCommentContext, addPendingComment, type PendingReviewComment } from './review-comments';
import { Composer } from './Composer';
import { SourcesPanel } from './SourcesPanel';
import { FeedList } from './FeedList';
import { AttachImageContext, FeedRepoContext, OpenTabContext } from './open-tab-context';
import { servedPorts, useAutoOpenPreview } from './preview/auto-open-preview';
import { primaryBranch } from './AgentToolbarMenus';
import { loadLayout, openTab as openTabIn, saveLayout, type Layout, type WorkspaceTab } from './tabs';
import { WorkspaceTabs } from './WorkspaceTabs';
import { useAgentActions, useAgentMetadata, useConversation } from './agent-api';
import { useMarkRead } from './use-mark-read';
import { agentPath, displayTitle, isWorking } from '../agent-display';
import { readStored, writeStored } from '../../lib/storage';
import { usePageTitle } from '../../lib/page-title';
import { feedEntries, unresolvedPending, type PendingMessage } from './feed-model';

/** Seeds the pending message the new-agent form handed over in the URL, then cleans the URL. */
function useSeededPending(agentId: string): { pending: PendingMessage[]; tempTitle: string | null } {
  const [params, setParams] = useSearchParams();
  // Shown until the agent names itself (workspace §2 temp_title). Kept for the tab's session, so a
  // reload (which no longer has it in the URL) shows the same title.
  const [tempTitle] = useState(() => {
    const key = `tandem:temp-title:${agentId}`;
    const fromUrl = params.get('temp_title');
    if (fromUrl === null) return readStored(key, 'session');
    writeStored(key, fromUrl, 'session');
    return fromUrl;
  });
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
  return { pending: seed, tempTitle };
}

/**
 * Party mode (/party, workspace §6): the public shared agent in this same workspace. Anyone chats
 * (through POST /api/party/message), only admins steer; the page says which agent it is and how
 * to tell the viewer's own messages (an anonymous visitor's are theirs by lead, not by user id).
 */
export interface PartyWorkspace {
  agentId: string;
  send: (message: string) => Promise<{ event_uuid: string }>;
  isOwn: (item: ConversationItem) => boolean;
  /** The operator's message cap (TANDEM_PARTY_MAX_MESSAGE_CHARS). */
  maxMessageChars: number;
}

/**
 * The agent workspace: `/gh/{owner}/{repo}/agent/{id}`, also reached as `/agent/{id}` and
 * `/agents/{id}`, and on /party for the party agent. Going to another agent on the same route
 * starts a fresh workspace: its tabs, pending messages and auto-open memory all belong to one agent.
 */
export function AgentWorkspacePage(props: { party?: PartyWorkspace } = {}) {
  const { agentId = '' } = useParams();
  const id = props.party?.agentId ?? agentId;
  return <AgentWorkspace key={id} agentId={id} party={props.party ?? null} />;
}

function AgentWorkspace(props: { agentId: string; party: PartyWorkspace | null }) {
  const { owner, repo } = useParams();
  const { agentId, party } = props;
  const { user } = useCurrentUser();
  const metadata = useAgentMetadata(agentId);
  const conversation = useConversation(agentId);
  const actions = useAgentActions(agentId);
  const seeded = useSeededPending(agentId);
  const [pending, setPending] = useState<PendingMessage[]>(seeded.pending);
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(null);
  const notify = useCallback((next: Notice) => setNotice({ ...next, key: Date.now() }), []);
  const [followToken, setFollowToken] = useState(0);
  const [layout, setLayout] = useState<Layout>(() => loadLayout(agentId));
  const [drawerOpen, setDrawerOpen] = useState(false);
  const small = useMediaQuery('(max-width: 600px)');
  const updateLayout = (next: Layout) => {
    setLayout(next);
    saveLayout(agentId, next);
  };
  const openTab = (tab: WorkspaceTab) => {
    updateLayout(openTabIn(layout, tab));
    if (small) setDrawerOpen(true);
  };
  // Opened by the agent's own progress, not the user: no drawer popping up on small screens.
  const autoOpen = (tab: WorkspaceTab) =>
    setLayout((current) => {
      const next = openTabIn(current, tab);
      saveLayout(agentId, next);
      return next;
    });
  const agent = metadata.data;
  const repoName = agent?.repo_name ?? (owner && repo ? `${owner}/${repo}` : '');
  const working = isWorking(agent?.status);
  // One title everywhere (top bar, breadcrumbs, tab), the same before and after a reload.
  const shownTitle =
    agent && seeded.tempTitle && agent.title === DEFAULT_AGENT_TITLE ? seeded.tempTitle : agent?.title;

  useBreadcrumbs(
    party
      ? [{ label: 'Party', to: '/party' }, { label: shownTitle ?? 'Agent' }]
      : [
          { label: user?.username ?? '', to: '/gh' },
          { label: repoName, to: `/gh/${repoName}/agents` },
          { label: shownTitle ?? 'Agent' },
        ],
  );
  usePageTitle(
    agent && shownTitle ? `${displayTitle({ status: agent.status, title: shownTitle })} ·` : undefined,
  );
  const latest = conversation.items.at(-1)?.timestamp;
  // A visitor without an account has nothing to mark read.
  useMarkRead(party && !user ? undefined : agentId, latest);

  useAutoOpenDiff(metadata.data, conversation.items, conversation.loaded, autoOpen);
  useAutoOpenPreview(metadata.data, autoOpen);
  const composerAttach = useRef<((image: ImageAttachment) => void) | null>(null);
  const shownPending = unresolvedPending(pending, conversation.items);
  const entries = useMemo(() => feedEntries(conversation.items), [conversation.items]);

  const denied = metadata.error instanceof ApiError && [401, 404, 422].includes(metadata.error.status);
  // Platform §8: the party page says what went wrong rather than "not found".
  if (party && metadata.error && !agent)
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        Error: {metadata.error.message}
      </Alert>
    );
  if (denied) return <NotFoundPage />;
  if (!agent) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
        <CircularProgress aria-label="Loading agent" />
      </Box>
    );
  }
  if (
    !party &&
    agent.repo_name &&
    (owner !== agent.repo_name.split('/')[0] || repo !== agent.repo_name.split('/')[1])
  ) {
    return <Navigate replace to={agentPath(agent)} />;
  }

  const feedRepo = agent.repo_name
    ? { repoName: agent.repo_name, branch: primaryBranch(agent)?.branch ?? null }
    : null;
  // One tab view, beside the chat or (small screens) in the drawer.
  const tabs = (
    <WorkspaceTabs
      layout={withCurrentDiffTitles(layout, agent)}
      onLayout={updateLayout}
      agentId={agent.id}
      items={conversation.items}
      spice={conversation.spice}
      entries={entries}
      servedPorts={servedPorts(agent)}
    />
  );
  const can = workspacePermissions({
    isOwn: agent.is_own,
    admin: Boolean(user?.admin),
    party: party !== null,
  });
  // Review comments come from whoever may message the agent (workspace §6); party messages are
  // text only.
  const addComment =
    can.chat && !party
      ? (comment: Parameters<typeof addPendingComment>[1]) => void addPendingComment(agent.id, comment)
      : null;
  const send = async (message: string, images: ImageAttachment[], comments: PendingReviewComment[]) => {
    const entry: PendingMessage = { event_uuid: null, message, image_count: images.length };
    setPending((list) => [...list, entry]);
    setFollowToken((n) => n + 1);
    try {
      const { event_uuid } = party
        ? await party.send(message)
        : await actions.send({ message, images, comments });
      setPending((list) => list.map((p) => (p === entry ? { ...p, event_uuid } : p)));
    } catch (error) {
      setPending((list) => list.filter((p) => p !== entry));
      throw error;
    }
  };
  return (
    <OpenTabContext.Provider value={openTab}>
      <AttachImageContext.Provider
        value={can.chat && !party ? (image) => composerAttach.current?.(image) : null}
      >
        <FeedRepoContext.Provider value={feedRepo}>
          <AddCommentContext.Provider value={addComment}>
            {/* On /party the page's own bar sits above: the workspace fills what is left. */}
            <Stack sx={{ height: party ? '100%' : 'calc(100dvh - 64px)', px: 2, py: 1 }} spacing={1}>
              <AgentTopBar
                agent={shownTitle && shownTitle !== agent.title ? { ...agent, title: shownTitle } : agent}
                can={can}
                small={small}
                actions={actions}
                onOpen={openTab}
                notify={notify}
              />
              <Stack direction="row" spacing={1} sx={{ flex: 1, minHeight: 0 }}>
                <Stack sx={{ flex: 1, minWidth: 0 }}>
                  <FeedList
                    entries={entries}
                    pending={shownPending}
                    working={working}
                    viewerId={user?.user_id}
                    isOwn={party?.isOwn}
                    hasMore={conversation.hasMore}
                    loadingOlder={conversation.loadingOlder}
                    onLoadOlder={() => void conversation.loadOlder()}
                    followToken={followToken}
                  />
                </Stack>
                {layout.tabs.length && !small ? (
                  <Paper variant="outlined" sx={{ flex: 1, minWidth: 0 }}>
                    {tabs}
                  </Paper>
                ) : null}
              </Stack>
              {small && layout.tabs.length ? (
                <>
                  <Button
                    size="small"
                    onClick={() => setDrawerOpen(true)}
                    sx={{ alignSelf: 'flex-start' }}
                    startIcon={
                      <Badge badgeContent={layout.tabs.length} color="primary">
                        <TabIcon />
                      </Badge>
                    }
                  >
                    Tabs
                  </Button>
                  <Drawer
                    anchor="bottom"
                    open={drawerOpen}
                    onClose={() => setDrawerOpen(false)}
                    slotProps={{ paper: { sx: { height: '90%' } } }}
                  >
                    {tabs}
                  </Drawer>
                </>
              ) : null}
              {can.chat ? (
                <Stack spacing={1}>
                  <SourcesPanel agent={agent} canSteer={can.editLimit} />
                  <AgentSettingsBar
                    agent={agent}
                    canEdit={can.editLimit}
                    canChooseModels={can.chooseModels}
                    admin={Boolean(user?.admin)}
                  />
                  <Composer
                    agentId={agent.id}
                    onSend={send}
                    attachRef={composerAttach}
                    {...(party
                      ? { textOnly: true, maxChars: party.maxMessageChars, explainErrors: true }
                      : {})}
                  />
                </Stack>
              ) : null}
            </Stack>
            <NoticeSnackbar notice={notice} onClose={() => setNotice(null)} />
          </AddCommentContext.Provider>
        </FeedRepoContext.Provider>
      </AttachImageContext.Provider>
    </OpenTabContext.Provider>
  );
}

export default AgentWorkspacePage;
