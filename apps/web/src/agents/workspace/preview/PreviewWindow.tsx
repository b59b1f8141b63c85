import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import RefreshIcon from '@mui/icons-material/Refresh';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { normalizeSubdomain } from '@tandem/shared';
import { useEffect, useRef, useState } from 'react';
import { stripDataUrl } from '../../manager/image-files';
import { useAttachImage } from '../open-tab-context';
import { openInNewTabUrl, previewToken, usePreview } from './preview-api';
import { usePreviewFrame } from './use-preview-frame';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The preview tab 'Port {n}': the port's own origin in a frame, with back, reload and screenshot. */
export function PreviewWindow(props: { agentId: string; port: number; served: boolean }) {
  const { agentId, port, served } = props;
  const { query, rename } = usePreview(agentId, port);
  const preview = query.data;
  const url = preview ? new URL(preview.url) : null;
  const frameRef = useRef<HTMLIFrameElement>(null);
  const frame = usePreviewFrame(frameRef, url?.origin ?? null);
  const attachImage = useAttachImage();
  const [reloads, setReloads] = useState(0);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [capturing, setCapturing] = useState(false);
  const [token, setToken] = useState<string | null>(null);

  useEffect(() => setDraft(preview?.subdomain ?? ''), [preview?.subdomain]);
  useEffect(() => {
    previewToken().then(setToken, () => setToken(null));
  }, []);

  if (query.isPending) {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <CircularProgress size={16} />
        <Typography color="text.secondary">Opening the preview of port {port}…</Typography>
      </Stack>
    );
  }
  if (!preview || !url) {
    return <Alert severity="error">Failed to open the preview: {errorText(query.error)}</Alert>;
  }
  // "subdomain" is the part before the first dot; the rest of the host is fixed.
  const hostRest = url.host.slice(preview.subdomain.length);

  const submitName = () => {
    const name = normalizeSubdomain(draft);
    // Empty or unchanged does nothing (workspace §5).
    if (!name || name === preview.subdomain) {
      setDraft(preview.subdomain);
      return;
    }
    setProblem(null);
    rename.mutate(name, {
      onError: (error) => {
        setDraft(preview.subdomain);
        setProblem(`Could not rename the preview: ${errorText(error)}`);
      },
    });
  };

  const capture = async () => {
    if (!attachImage) return;
    setCapturing(true);
    setProblem(null);
    try {
      const dataUrl = await frame.screenshot();
      attachImage({ data: stripDataUrl(dataUrl), type: 'image/png', name: `port-${port}.png` });
      setNote('Screenshot added to your message.');
    } catch (error) {
      setProblem(`Screenshot failed: ${errorText(error)}`);
    } finally {
      setCapturing(false);
    }
  };

  return (
    <Stack spacing={1} sx={{ height: '100%', minHeight: 0 }}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Tooltip title="Back">
          <IconButton size="small" aria-label="Back" onClick={frame.back}>
            <ArrowBackIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Reload">
          <IconButton size="small" aria-label="Reload preview" onClick={() => setReloads((n) => n + 1)}>
            <RefreshIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <TextField
          size="small"
          label="Preview address"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={submitName}
          onKeyDown={(e) => {
            if (e.key === 'Enter') submitName();
            if (e.key === 'Escape') setDraft(preview.subdomain);
          }}
          disabled={rename.isPending}
          sx={{ flex: 1 }}
          slotProps={{
            input: {
              startAdornment: <InputAdornment position="start">{url.protocol}//</InputAdornment>,
              endAdornment: <InputAdornment position="end">{hostRest}</InputAdornment>,
            },
          }}
        />
        <Typography
          aria-label="Preview path"
          title={frame.path}
          noWrap
          sx={{ fontFamily: 'monospace', fontSize: 13, maxWidth: '25%' }}
        >
          {frame.path}
        </Typography>
        {attachImage ? (
          <Tooltip title="Add a screenshot to your message">
            <span>
              <IconButton
                size="small"
                aria-label="Screenshot to message"
                onClick={() => void capture()}
                disabled={capturing}
              >
                {capturing ? <CircularProgress size={16} /> : <PhotoCameraIcon fontSize="small" />}
              </IconButton>
            </span>
          </Tooltip>
        ) : null}
        <Tooltip title="Open in a new tab">
          <span>
            <IconButton
              size="small"
              aria-label="Open preview in a new tab"
              component="a"
              href={token ? openInNewTabUrl(preview.url, frame.path, token) : undefined}
              target="_blank"
              rel="noopener"
              disabled={!token}
            >
              <OpenInNewIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
      {!served ? (
        <Alert severity="info">
          Port {port} is not being served right now. The preview shows it again once the agent starts it.
        </Alert>
      ) : null}
      {problem ? (
        <Alert severity="error" onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      ) : null}
      {note ? (
        <Alert severity="success" onClose={() => setNote(null)}>
          {note}
        </Alert>
      ) : null}
      <Box
        component="iframe"
        key={`${preview.url}#${reloads}`}
        ref={frameRef}
        src={preview.url}
        title={`Preview of port ${port}`}
        // A different site from the workspace, so same-origin here only means the preview's own.
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads"
        sx={{
          flex: 1,
          minHeight: 0,
          width: '100%',
          border: 1,
          borderColor: 'divider',
          bgcolor: 'common.white',
        }}
      />
    </Stack>
  );
}
