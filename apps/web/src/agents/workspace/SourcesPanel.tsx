import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AgentMetadata, Source } from '@tandem/shared';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { readStored, writeStored } from '../../lib/storage';
import { useUpdateSourceBehavior, type SourceBehavior } from './use-update-source-behavior';

const collapsedKey = (agentId: string) => `sourcesCollapsed:${agentId}`;

const STATE_COLOR = { open: 'success', merged: 'secondary', closed: 'error' } as const;

function label(source: Source): string {
  if (source.type === 'issue') return `Issue #${source.number}`;
  if (source.number !== null) return `PR #${source.number} (${source.branch ?? 'branch'})`;
  return `Branch ${source.branch ?? ''}`.trim();
}

const BEHAVIOR_LABELS: Record<SourceBehavior, string> = {
  always: 'Every comment',
  tagged: 'Only when tagged',
};

/** Whether new comments on an issue or pull request wake the agent (workspace §1 wake rules). */
function BehaviorSelect({
  source,
  onChange,
  disabled,
}: {
  source: Source;
  onChange: (behavior: SourceBehavior) => void;
  disabled: boolean;
}) {
  const value: SourceBehavior = source.behavior === 'tagged' ? 'tagged' : 'always';
  return (
    <TextField
      select
      size="small"
      label={`Wake on (${label(source)})`}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as SourceBehavior)}
      sx={{ minWidth: 200 }}
      slotProps={{ inputLabel: { shrink: true } }}
    >
      {(Object.keys(BEHAVIOR_LABELS) as SourceBehavior[]).map((key) => (
        <MenuItem key={key} value={key}>
          {BEHAVIOR_LABELS[key]}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The agent's subscriptions: its branch (and PR) and the issues and PRs it follows. With `canSteer`,
 * each issue or pull request offers whether every new comment wakes the agent or only a tag.
 */
export function SourcesPanel({ agent, canSteer = false }: { agent: AgentMetadata; canSteer?: boolean }) {
  const behavior = useUpdateSourceBehavior(agent.id);
  const [collapsed, setCollapsed] = useState(() => readStored(collapsedKey(agent.id)) === '1');
  const groups = Object.entries(agent.sources).filter(([, list]) => list.length > 0);
  // A branch subscription that arrives while the page is open expands the panel (workspace §4).
  const branchIds = groups
    .flatMap(([, list]) => list)
    .filter((s) => s.type === 'branch')
    .map((s) => s.id)
    .join(',');
  const seenBranches = useRef(branchIds);
  useEffect(() => {
    const seen = new Set(seenBranches.current.split(','));
    seenBranches.current = branchIds;
    if (branchIds.split(',').some((id) => id && !seen.has(id))) {
      writeStored(collapsedKey(agent.id), '0');
      setCollapsed(false);
    }
  }, [branchIds, agent.id]);
  if (!groups.length) return null;
  const toggle = () => {
    writeStored(collapsedKey(agent.id), collapsed ? '0' : '1');
    setCollapsed(!collapsed);
  };
  return (
    <Stack spacing={0.5} aria-label="Subscriptions" role="region">
      <Button size="small" onClick={toggle} sx={{ alignSelf: 'flex-start' }} aria-expanded={!collapsed}>
        {collapsed ? 'Show subscriptions' : 'Hide subscriptions'}
      </Button>
      <Collapse in={!collapsed}>
        {groups.map(([repo, sources]) => (
          <Stack key={repo} direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="caption" color="text.secondary">
              {repo}
            </Typography>
            {sources.map((source) => (
              <Stack key={source.id} direction="row" spacing={1} sx={{ alignItems: 'center', py: 0.5 }}>
                <Chip
                  size="small"
                  variant="outlined"
                  color={STATE_COLOR[source.state]}
                  label={`${label(source)} · ${source.state}`}
                />
                {canSteer && source.number !== null ? (
                  <BehaviorSelect
                    source={source}
                    disabled={behavior.isPending}
                    onChange={(next) => behavior.mutate({ sourceId: source.id, behavior: next })}
                  />
                ) : null}
              </Stack>
            ))}
          </Stack>
        ))}
        {behavior.error ? (
          <Alert severity="error" onClose={() => behavior.reset()}>
            {behavior.error instanceof ApiError
              ? behavior.error.serverMessage
              : 'Could not change when the agent wakes'}
          </Alert>
        ) : null}
      </Collapse>
    </Stack>
  );
}
