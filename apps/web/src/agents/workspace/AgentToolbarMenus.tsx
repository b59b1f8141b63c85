import DifferenceIcon from '@mui/icons-material/Difference';
import LanIcon from '@mui/icons-material/Lan';
import MenuBookIcon from '@mui/icons-material/MenuBookOutlined';
import PlayCircleIcon from '@mui/icons-material/PlayCircleOutlined';
import PsychologyIcon from '@mui/icons-material/Psychology';
import Button from '@mui/material/Button';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { AgentMetadata, Source } from '@tandem/shared';
import { useState } from 'react';
import type { Notify } from '../manager/Notice';
import { diffTitle } from './diff/branch-header';
import type { WorkspaceTab } from './tabs';
import { servedPorts } from './preview/auto-open-preview';
import { useAgentScripts, useRunScript } from './use-agent-scripts';

/** The agent's own branch subscription (the first one), which View Diff opens. */
export function primaryBranch(agent: AgentMetadata) {
  const repoSources = agent.repo_name ? (agent.sources[agent.repo_name] ?? []) : [];
  return (
    repoSources.find((s) => s.type === 'branch') ??
    Object.values(agent.sources)
      .flat()
      .find((s) => s.type === 'branch') ??
    null
  );
}

/** The diff tab of a branch subscription, or the live diff without one (workspace §2). */
export function diffTabOf(source: Source | null): WorkspaceTab {
  if (!source) return { kind: 'diff', sourceId: null, title: diffTitle(null, null) };
  return { kind: 'diff', sourceId: source.id, title: diffTitle(source.number, source.branch) };
}

export const diffTabFor = (agent: AgentMetadata) => diffTabOf(primaryBranch(agent));

export function ViewDiffButton({
  agent,
  onOpen,
}: {
  agent: AgentMetadata;
  onOpen: (tab: WorkspaceTab) => void;
}) {
  return (
    <Button size="small" startIcon={<DifferenceIcon />} onClick={() => onOpen(diffTabFor(agent))}>
      View Diff
    </Button>
  );
}

export function SpiceButton({ onOpen }: { onOpen: (tab: WorkspaceTab) => void }) {
  return (
    <Button size="small" startIcon={<PsychologyIcon />} onClick={() => onOpen({ kind: 'spice' })}>
      Spice Messages
    </Button>
  );
}

/** The Docs tab opens the documentation beside the workspace, not in place of it. */
export function DocsButton() {
  return (
    <Button size="small" startIcon={<MenuBookIcon />} href="/docs" target="_blank" rel="noopener">
      Docs
    </Button>
  );
}

/** Ports the agent's shells serve; each opens its preview tab 'Port {n}'. */
export function PortsMenu({ agent, onOpen }: { agent: AgentMetadata; onOpen: (tab: WorkspaceTab) => void }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const ports = servedPorts(agent);
  if (!ports.length) return null;
  return (
    <>
      <Button size="small" startIcon={<LanIcon />} onClick={(e) => setAnchor(e.currentTarget)}>
        Ports ({ports.length})
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {ports.map((port) => (
          <MenuItem
            key={port}
            onClick={() => {
              setAnchor(null);
              onOpen({ kind: 'preview', port });
            }}
          >
            Port {port}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

const SECTIONS = [
  ['run', 'Run'],
  ['auto', 'Run automatically'],
  ['preview', 'Preview'],
] as const;

/** Scripts of `.tandem/run`, `.tandem/run/auto` and `.tandem/preview`, started in the agent's sandbox. */
export function RunScriptsMenu(props: { agent: AgentMetadata; notify: Notify }) {
  const { agent, notify } = props;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const branch = primaryBranch(agent)?.branch ?? agent.base_branch ?? '';
  const scripts = useAgentScripts(agent.id, branch);
  const runScript = useRunScript(agent.id);
  const run = async (path: string, preview: boolean) => {
    setAnchor(null);
    try {
      await runScript(path);
      notify({ severity: 'success', message: `Started ${path}` });
    } catch {
      notify({
        severity: 'error',
        message: preview ? 'Failed to launch preview scripts' : `Failed to start ${path}`,
      });
    }
  };
  const lists = scripts.data;
  const empty = !lists || (!lists.run.length && !lists.auto.length && !lists.preview.length);
  return (
    <>
      <Button
        size="small"
        startIcon={<PlayCircleIcon />}
        onClick={(e) => {
          setAnchor(e.currentTarget);
          void scripts.refetch();
        }}
      >
        Run Scripts
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {empty ? (
          <MenuItem disabled>
            {scripts.isLoading ? 'Loading scripts…' : 'No scripts in .tandem/run or .tandem/preview'}
          </MenuItem>
        ) : null}
        {SECTIONS.flatMap(([key, label]) =>
          lists?.[key].length
            ? [
                <ListSubheader key={key}>{label}</ListSubheader>,
                ...lists[key].map((path) => (
                  <MenuItem key={path} onClick={() => void run(path, key === 'preview')}>
                    {path.split('/').at(-1)}
                  </MenuItem>
                )),
              ]
            : [],
        )}
      </Menu>
    </>
  );
}
