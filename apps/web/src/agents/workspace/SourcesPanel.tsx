import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AgentMetadata, Source } from '@tandem/shared';
import { useEffect, useRef, useState } from 'react';
import { readStored, writeStored } from '../../lib/storage';

const collapsedKey = (agentId: string) => `sourcesCollapsed:${agentId}`;

const STATE_COLOR = { open: 'success', merged: 'secondary', closed: 'error' } as const;

function label(source: Source): string {
  if (source.type === 'issue') return `Issue #${source.number}`;
  if (source.number !== null) return `PR #${source.number} (${source.branch ?? 'branch'})`;
  return `Branch ${source.branch ?? ''}`.trim();
}

/** The agent's subscriptions: its branch (and PR) and the issues and PRs it follows. */
export function SourcesPanel({ agent }: { agent: AgentMetadata }) {
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
              <Chip
                key={source.id}
                size="small"
                variant="outlined"
                color={STATE_COLOR[source.state]}
                label={`${label(source)} · ${source.state}`}
              />
            ))}
          </Stack>
        ))}
      </Collapse>
    </Stack>
  );
}
