import ArchiveIcon from '@mui/icons-material/ArchiveOutlined';
import PauseIcon from '@mui/icons-material/Pause';
import UnarchiveIcon from '@mui/icons-material/UnarchiveOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { DEFAULT_AGENT_TITLE, SUPERVISOR_FALLBACK_TITLE, type AgentMetadata } from '@tandem/shared';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Notice, Notify } from '../manager/Notice';
import { ARCHIVE_MESSAGES, CONFLICT_NOTICE_MS, UnarchiveConflict } from '../manager/use-archive';
import { WorkingGlyph } from '../WorkingGlyph';
import { AgentHierarchy, isActive } from '../AgentHierarchy';
import { AgentTitle } from './AgentTitle';
import { DocsButton, PortsMenu, RunScriptsMenu, SpiceButton, ViewDiffButton } from './AgentToolbarMenus';
import type { useAgentActions } from './agent-api';
import type { WorkspacePermissions } from './permissions';
import type { WorkspaceTab } from './tabs';

/** Workspace §2 "Agent page items": title, pause, View Diff, ports, Run Scripts, Docs, Spice, archive. */
export function AgentTopBar(props: {
  agent: AgentMetadata;
  can: WorkspacePermissions;
  small: boolean;
  actions: ReturnType<typeof useAgentActions>;
  onOpen: (tab: WorkspaceTab) => void;
  notify: Notify;
}) {
  const { agent, can, actions, onOpen, notify } = props;
  const navigate = useNavigate();
  // A supervisor counts as working while a sub-agent does: its pause then stops them too.
  const working = isActive(agent);
  const [pausing, setPausing] = useState(false);
  useEffect(() => {
    if (!working) setPausing(false);
  }, [working]);
  const supervisor = agent.agent_type === 'supervisor';
  const title = agent.title || (supervisor ? SUPERVISOR_FALLBACK_TITLE : DEFAULT_AGENT_TITLE);

  const archive = async () => {
    const archiving = !agent.archived;
    const failed = archiving ? ARCHIVE_MESSAGES.archiveFailed : ARCHIVE_MESSAGES.unarchiveFailed;
    try {
      const answer = await actions.archive(archiving);
      if (!answer.success) {
        const conflict = answer.error_data;
        notify(
          conflict
            ? {
                severity: 'error',
                duration: CONFLICT_NOTICE_MS,
                message: <UnarchiveConflict htmlUrl={conflict.html_url} number={conflict.number} />,
              }
            : { severity: 'error', message: failed },
        );
        return;
      }
      // Archiving on the agent's own page goes back to the repository's list (workspace §4),
      // which shows the notice.
      if (archiving) {
        const notice: Notice = { severity: 'success', message: ARCHIVE_MESSAGES.archived };
        void navigate(`/gh/${agent.repo_name}/agents`, { state: { notice } });
      } else notify({ severity: 'success', message: ARCHIVE_MESSAGES.unarchived });
    } catch {
      notify({ severity: 'error', message: failed });
    }
  };

  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ alignItems: 'center', minHeight: 48, flexWrap: 'wrap' }}
    >
      {/* On a phone the title takes its own row, one line, read-only (the editable title is hidden
          on small screens, workspace §2), so the buttons wrap below it instead of squeezing it. */}
      <Box
        sx={{
          flex: props.small ? '1 0 100%' : 1,
          minWidth: 0,
          display: 'flex',
          alignItems: 'center',
          gap: 1,
        }}
      >
        {props.small ? (
          <Typography variant="subtitle1" component="h1" noWrap sx={{ fontWeight: 600, minWidth: 0 }}>
            <WorkingGlyph working={working} />
            {title}
          </Typography>
        ) : (
          <AgentTitle title={title} working={working} canEdit={can.editTitle} onRename={actions.rename} />
        )}
        {supervisor ? <Chip size="small" color="secondary" label="Supervisor" /> : null}
      </Box>
      {working && can.pause === 'spinner' ? (
        <CircularProgress size={20} aria-label="Agent is working" />
      ) : null}
      {working && can.pause === 'button' ? (
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
              {pausing ? <CircularProgress size={20} aria-label="Pausing" /> : <PauseIcon />}
            </IconButton>
          </span>
        </Tooltip>
      ) : null}
      <ViewDiffButton agent={agent} onOpen={onOpen} />
      <PortsMenu agent={agent} onOpen={onOpen} />
      {can.runScripts ? <RunScriptsMenu agent={agent} notify={notify} /> : null}
      <DocsButton />
      {can.spice ? <SpiceButton onOpen={onOpen} /> : null}
      {can.archive ? (
        <Button
          size="small"
          startIcon={agent.archived ? <UnarchiveIcon /> : <ArchiveIcon />}
          onClick={() => void archive()}
        >
          {agent.archived ? 'Unarchive' : 'Archive'}
        </Button>
      ) : null}
      {agent.supervisor || agent.sub_agents.length ? (
        <Box sx={{ flex: '1 0 100%' }}>
          <AgentHierarchy agent={agent} />
        </Box>
      ) : null}
    </Stack>
  );
}
