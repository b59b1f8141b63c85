import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AgentLog } from '@tandem/shared';
import { useId, useLayoutEffect, useRef } from 'react';
import { formatDuration, logState, shortSha } from './log-view-model';
import { useAgentLog } from './use-agent-log';

export { logTabTitle } from './log-view-model';

const monospace = { fontFamily: 'monospace', fontSize: 12, m: 0, p: 1, bgcolor: 'action.hover' } as const;

/** Within this many pixels of the bottom, the output follows new lines of a running script. */
const FOLLOW_EDGE_PX = 24;

/** The script's output; while it grows, it stays scrolled to the end unless the reader scrolled up. */
function LogOutput({ output, running }: { output: string; running: boolean }) {
  const outputRef = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const el = outputRef.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [output]);
  return (
    <Box
      component="pre"
      ref={outputRef}
      tabIndex={0}
      aria-label="Output"
      data-testid="log-output"
      onScroll={() => {
        const el = outputRef.current;
        if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_EDGE_PX;
      }}
      sx={{
        ...monospace,
        flex: 1,
        minHeight: 160,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
      }}
    >
      {output || (running ? 'No output yet.' : 'No output.')}
    </Box>
  );
}

export function LogDetails({ log, headingId }: { log: AgentLog; headingId: string }) {
  const state = logState(log.status_code);
  return (
    <>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography
          id={headingId}
          component="h2"
          variant="subtitle2"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {log.path}
        </Typography>
        <Chip size="small" label={state.label} color={state.color} />
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Started <time dateTime={log.started_at}>{new Date(log.started_at).toLocaleString()}</time>
        {log.duration !== null ? ` · ${formatDuration(log.duration)}` : null}
        {log.commit_sha ? (
          <>
            {' · commit '}
            <Box component="span" title={log.commit_sha} sx={{ fontFamily: 'monospace' }}>
              {shortSha(log.commit_sha)}
            </Box>
          </>
        ) : null}
      </Typography>
      <Accordion disableGutters variant="outlined">
        <AccordionSummary expandIcon={<ExpandMoreIcon />}>
          <Typography variant="body2">Script</Typography>
        </AccordionSummary>
        <AccordionDetails sx={{ p: 0 }}>
          <Box
            component="pre"
            tabIndex={0}
            aria-label="Script"
            sx={{ ...monospace, overflow: 'auto', maxHeight: 320, whiteSpace: 'pre' }}
          >
            {log.script_contents}
          </Box>
        </AccordionDetails>
      </Accordion>
      <LogOutput output={log.output} running={log.status_code === null} />
    </>
  );
}

/** One script run's log (workspace §3 "Log"), read again every 2.5 s while the script runs. */
export function LogWindow(props: { agentId: string; logId: string }) {
  const { agentId, logId } = props;
  const headingId = useId();
  const log = useAgentLog(agentId, logId);

  let body;
  if (log.data) {
    // A failed poll keeps showing what was read last, with a note that it may be stale.
    body = (
      <>
        {log.isError ? <Alert severity="warning">Failed to fetch log</Alert> : null}
        <LogDetails log={log.data} headingId={headingId} />
      </>
    );
  } else if (log.isError) {
    body = <Alert severity="error">Failed to fetch log</Alert>;
  } else {
    body = <CircularProgress size={24} aria-label="Loading log" sx={{ alignSelf: 'center', mt: 2 }} />;
  }

  return (
    <Stack
      component="section"
      aria-labelledby={log.data ? headingId : undefined}
      aria-label={log.data ? undefined : 'Log'}
      spacing={1}
      sx={{ height: '100%', minHeight: 0 }}
    >
      {body}
    </Stack>
  );
}
