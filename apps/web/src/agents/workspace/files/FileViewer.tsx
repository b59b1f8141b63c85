import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useId, useMemo } from 'react';
import { useCurrentUser } from '../../../auth/current-user';
import { countLines, displayRef, errorStatus, fileFetchErrorMessage, lineNumbers } from './file-view-model';
import { useAgentFile } from './use-agent-file';

export { fileFetchErrorMessage, fileTabTitle } from './file-view-model';

const codeFont = { fontFamily: 'monospace', fontSize: 12, lineHeight: 1.5, m: 0, py: 1 } as const;

/**
 * A file's text with line numbers. A file may be up to 1 MB, so it is two text nodes whatever its
 * length: the whole text in one <pre>, and the numbers in a second <pre> beside it. Lines never
 * wrap, so both share one line height and stay aligned. The browser lays out a single text node far
 * faster than tens of thousands of row elements, and unlike a virtualised list this keeps
 * find-in-page and selecting across many lines working; the gutter is not selectable, so copied
 * code carries no numbers.
 */
function NumberedText({ text, label }: { text: string; label: string }) {
  const gutter = useMemo(() => lineNumbers(countLines(text)), [text]);
  return (
    <Box
      role="region"
      aria-label={label}
      tabIndex={0}
      sx={{ flex: 1, minHeight: 0, overflow: 'auto', display: 'flex', alignItems: 'flex-start' }}
    >
      <Box
        component="pre"
        aria-hidden
        sx={{
          ...codeFont,
          px: 1,
          textAlign: 'right',
          color: 'text.secondary',
          userSelect: 'none',
          // Stays in view while the code scrolls sideways.
          position: 'sticky',
          left: 0,
          bgcolor: 'background.paper',
          borderRight: 1,
          borderColor: 'divider',
        }}
      >
        {gutter}
      </Box>
      <Box component="pre" data-testid="file-contents" sx={{ ...codeFont, px: 1, whiteSpace: 'pre' }}>
        {text}
      </Box>
    </Box>
  );
}

/**
 * A file of the agent's repository at one ref, read through the server (workspace §4 "File read
 * states", §8 file-fetch errors).
 */
export function FileViewer(props: {
  agentId: string;
  repositoryName: string;
  path: string;
  gitRef?: string | null;
}) {
  const { agentId, repositoryName, path } = props;
  const ref = props.gitRef ?? null;
  const headingId = useId();
  const { user } = useCurrentUser();
  const file = useAgentFile(agentId, repositoryName, path, ref);

  let body;
  if (file.data === undefined) {
    // Only a first read that failed shows the error: a failed re-read keeps the file on screen.
    body = file.isError ? (
      <Alert severity="error">{fileFetchErrorMessage(errorStatus(file.error), user !== null)}</Alert>
    ) : (
      <CircularProgress size={24} aria-label="Loading file" sx={{ alignSelf: 'center', mt: 2 }} />
    );
  } else {
    const content = file.data;
    switch (content.status) {
      case 'ok':
      case 'not_found':
        // The spec reads a missing file as an empty one (a file the range adds or removes).
        body = content.contents ? (
          <NumberedText text={content.contents} label={`Contents of ${path}`} />
        ) : (
          <Typography color="text.secondary">
            {ref
              ? `${path} is empty or does not exist at ${displayRef(ref)}.`
              : `${path} is empty or does not exist.`}
          </Typography>
        );
        break;
      case 'binary':
        body = <Typography color="text.secondary">Binary file not shown</Typography>;
        break;
      case 'too_large':
        body = <Typography color="text.secondary">Large file hidden</Typography>;
        break;
      case 'error':
        body = <Alert severity="error">Error displaying file</Alert>;
        break;
    }
  }

  return (
    <Stack component="section" aria-labelledby={headingId} spacing={1} sx={{ height: '100%', minHeight: 0 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minWidth: 0 }}>
        <Typography
          id={headingId}
          component="h2"
          variant="subtitle2"
          sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
        >
          {path}
        </Typography>
        {ref ? (
          <Chip size="small" label={displayRef(ref)} title={ref} sx={{ fontFamily: 'monospace' }} />
        ) : null}
        {file.isFetching && file.data !== undefined ? (
          <CircularProgress size={14} aria-label="Refreshing file" />
        ) : null}
      </Stack>
      {body}
    </Stack>
  );
}
