import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { AgentBranch, ConversationItem, DiffFile } from '@tandem/shared';
import { useMemo, useState } from 'react';
import { DiffFiles } from './DiffFiles';
import { DiffHeader } from './DiffHeader';
import { isSubscriptionGone, useAgentBranch, useAgentDiff } from './diff-api';
import { markScope } from './marked-files';
import { LIVE, liveChanges, liveDiffFile, overlayLive, type LiveChange } from './live-changes';
import { RangeCommits } from './RangeCommits';
import { commitsInRange, committedRange, rangeStops, rangeToSlider, type CommitRange } from './range';
import { RangeSelector } from './RangeSelector';

export { diffTabTitle } from './branch-header';

interface Props {
  agentId: string;
  /** The branch subscription shown; null shows only the uncommitted (live) changes. */
  sourceId: string | null;
  /** The conversation, oldest first: the live changes come from its edits. */
  items: ConversationItem[];
}

const NO_FILES: DiffFile[] = [];

const frame = { height: '100%', overflow: 'auto', display: 'flex', flexDirection: 'column' } as const;

/** The diff window of the agent workspace (workspace §2 "Diff window"). */
export function DiffWindow({ agentId, sourceId, items }: Props) {
  const branchQuery = useAgentBranch(agentId, sourceId);
  const branch = sourceId === null ? undefined : branchQuery.data;
  const live = useMemo(() => liveChanges(items, branch?.branch ?? null), [items, branch?.branch]);

  if (sourceId === null) return <LiveOnly agentId={agentId} live={live} />;
  if (isSubscriptionGone(branchQuery.error)) {
    return (
      <Box sx={{ ...frame, p: 2 }}>
        <Typography color="text.secondary">Branch subscription not found</Typography>
      </Box>
    );
  }
  if (!branch) {
    return (
      <Box sx={{ ...frame, p: 2, alignItems: 'center' }}>
        {branchQuery.error ? (
          <Alert severity="error">{branchQuery.error.message}</Alert>
        ) : (
          <CircularProgress size={24} aria-label="Loading diff" />
        )}
      </Box>
    );
  }
  return <BranchDiff agentId={agentId} sourceId={sourceId} branch={branch} live={live} />;
}

function LiveOnly({ agentId, live }: { agentId: string; live: LiveChange[] }) {
  const files = useMemo(() => live.map(liveDiffFile), [live]);
  return (
    <Box sx={frame}>
      <Typography component="h2" variant="subtitle1" sx={{ px: 1.5, py: 1 }}>
        Uncommitted changes
      </Typography>
      <DiffFiles scope={markScope(agentId, null)} files={files} truncated={false} />
    </Box>
  );
}

interface BranchProps {
  agentId: string;
  sourceId: string;
  branch: AgentBranch;
  live: LiveChange[];
}

function BranchDiff({ agentId, sourceId, branch, live }: BranchProps) {
  // null: the whole branch, which grows as commits arrive; set once the user picks a range.
  const [choice, setChoice] = useState<CommitRange | null>(null);
  const stops = useMemo(
    () => rangeStops(branch.base_sha, branch.commits, live.length > 0),
    [branch.base_sha, branch.commits, live.length],
  );
  const positions = rangeToSlider(stops, choice);
  const fromId = positions ? stops[positions[0]]?.id : undefined;
  const toId = positions ? stops[positions[1]]?.id : undefined;
  const range = useMemo(() => (fromId && toId ? { from: fromId, to: toId } : null), [fromId, toId]);
  const committed = useMemo(() => (range ? committedRange(stops, range) : null), [stops, range]);
  const diff = useAgentDiff(agentId, sourceId, committed);

  const committedFiles = committed ? diff.data?.files : NO_FILES;
  const files = useMemo(() => {
    if (!committedFiles) return undefined;
    return range?.to === LIVE ? overlayLive(committedFiles, live) : committedFiles;
  }, [committedFiles, range?.to, live]);

  return (
    <Box sx={frame}>
      <DiffHeader branch={branch} />
      {range && <RangeCommits commits={commitsInRange(branch.commits, range)} live={range.to === LIVE} />}
      {diff.isFetching && <LinearProgress aria-label="Loading changes" />}
      {diff.error && <Alert severity="error">{diff.error.message}</Alert>}
      {!range ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          No commits yet.
        </Typography>
      ) : (
        <DiffFiles
          scope={markScope(agentId, sourceId)}
          files={files}
          truncated={(committed && diff.data?.truncated) ?? false}
          controls={<RangeSelector stops={stops} value={choice} onChange={setChoice} />}
        />
      )}
    </Box>
  );
}
