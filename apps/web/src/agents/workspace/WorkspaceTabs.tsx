import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ConversationItem, SpiceItem } from '@tandem/shared';
import { DiffWindow } from './diff/DiffWindow';
import { FileViewer } from './files/FileViewer';
import { LogWindow } from './logs/LogWindow';
import { SpiceWindow } from './spice/SpiceWindow';
import { PreviewWindow } from './preview/PreviewWindow';
import { shellTranscript, type FeedEntry } from './feed-model';
import { closeTab, tabId, tabTitle, type Layout, type WorkspaceTab } from './tabs';

const str = (value: unknown) => (typeof value === 'string' ? value : '');

function ShellWindow({ pid, entries }: { pid: number; entries: FeedEntry[] }) {
  const shell = entries.find(
    (e): e is Extract<FeedEntry, { kind: 'shell' }> => e.kind === 'shell' && e.shell.pid === pid,
  );
  if (!shell)
    return <Typography color="text.secondary">This shell is not in the loaded conversation.</Typography>;
  return (
    <Stack spacing={1} sx={{ height: '100%' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
          $ {str(shell.shell.command)}
        </Typography>
        <Chip
          size="small"
          label={shell.active ? 'running' : 'stopped'}
          color={shell.active ? 'primary' : 'default'}
        />
      </Stack>
      <Box
        component="pre"
        tabIndex={0}
        aria-label={`Output of shell #${pid}`}
        sx={{
          flex: 1,
          m: 0,
          p: 1,
          overflow: 'auto',
          fontSize: 12,
          bgcolor: 'action.hover',
          whiteSpace: 'pre-wrap',
        }}
      >
        {shellTranscript(shell.shell, shell.messages)}
      </Box>
    </Stack>
  );
}

function SummaryWindow({ items }: { items: ConversationItem[] }) {
  const summaries = items.filter(
    (i) => i.action_type === 'SummaryEvent' || i.action_type === 'TaskCompleteEvent',
  );
  if (!summaries.length) return <Typography color="text.secondary">No summary yet.</Typography>;
  return (
    <Stack spacing={2}>
      {summaries.map((s) => (
        <Typography key={s.action_uuid} sx={{ whiteSpace: 'pre-wrap' }}>
          {str(s.summary_content) || str(s.task_summary)}
        </Typography>
      ))}
    </Stack>
  );
}

function AutoReviewWindow({ actionUuid, items }: { actionUuid: string; items: ConversationItem[] }) {
  const review = items.find((i) => i.action_uuid === actionUuid);
  return (
    <Typography sx={{ whiteSpace: 'pre-wrap' }}>
      {review
        ? str(review.auto_review) || 'Review in progress…'
        : 'This review is not in the loaded conversation.'}
    </Typography>
  );
}

interface TabData {
  agentId: string;
  items: ConversationItem[];
  spice: SpiceItem[];
  entries: FeedEntry[];
  /** Ports the agent serves now (preview tabs say when theirs is not among them). */
  servedPorts: readonly number[];
}

function TabContent({ tab, agentId, items, spice, entries, servedPorts }: TabData & { tab: WorkspaceTab }) {
  switch (tab.kind) {
    case 'shell':
      return <ShellWindow pid={tab.pid} entries={entries} />;
    case 'summary':
      return <SummaryWindow items={items} />;
    case 'auto-review':
      return <AutoReviewWindow actionUuid={tab.actionUuid} items={items} />;
    case 'diff':
      return <DiffWindow agentId={agentId} sourceId={tab.sourceId} items={items} />;
    case 'file':
      return (
        <FileViewer agentId={agentId} repositoryName={tab.repositoryName} path={tab.path} gitRef={tab.ref} />
      );
    case 'log':
      return <LogWindow agentId={agentId} logId={tab.logId} />;
    case 'spice':
      return <SpiceWindow spice={spice} />;
    case 'preview':
      return <PreviewWindow agentId={agentId} port={tab.port} served={servedPorts.includes(tab.port)} />;
  }
}

/** The closable tabs beside the chat (or in the small-screen drawer). */
export function WorkspaceTabs(props: TabData & { layout: Layout; onLayout: (layout: Layout) => void }) {
  const { layout } = props;
  const active = layout.tabs.find((t) => tabId(t) === layout.active) ?? layout.tabs[0];
  if (!active) return null;
  return (
    <Stack sx={{ height: '100%', minHeight: 0 }}>
      <Stack direction="row" sx={{ alignItems: 'center', minWidth: 0 }}>
        <Tabs
          value={tabId(active)}
          onChange={(_, id: string) => props.onLayout({ ...layout, active: id })}
          variant="scrollable"
          aria-label="Workspace tabs"
          sx={{ flex: 1, minWidth: 0 }}
        >
          {layout.tabs.map((tab) => (
            <Tab
              key={tabId(tab)}
              value={tabId(tab)}
              component="div"
              // Delete closes the focused tab: the close icons inside tabs are for the mouse only,
              // since a tab may not contain another focusable control (axe: nested-interactive).
              onKeyDown={(e) => {
                if (e.key === 'Delete') props.onLayout(closeTab(layout, tabId(tab)));
              }}
              label={
                <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                  <span>{tabTitle(tab)}</span>
                  <Box
                    component="span"
                    aria-hidden
                    title={`Close ${tabTitle(tab)}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      props.onLayout(closeTab(layout, tabId(tab)));
                    }}
                    sx={{
                      display: 'inline-flex',
                      p: 0.5,
                      borderRadius: '50%',
                      '&:hover': { bgcolor: 'action.hover' },
                    }}
                  >
                    <CloseIcon fontSize="inherit" />
                  </Box>
                </Stack>
              }
            />
          ))}
        </Tabs>
        <IconButton
          size="small"
          aria-label={`Close ${tabTitle(active)}`}
          onClick={() => props.onLayout(closeTab(layout, tabId(active)))}
        >
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      <Box
        role="tabpanel"
        aria-label={tabTitle(active)}
        sx={{ flex: 1, minHeight: 0, overflow: 'auto', p: 1.5 }}
      >
        <TabContent
          tab={active}
          agentId={props.agentId}
          items={props.items}
          spice={props.spice}
          entries={props.entries}
          servedPorts={props.servedPorts}
        />
      </Box>
    </Stack>
  );
}
