import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { visuallyHidden } from '@mui/utils';
import { useEffect, useRef, useState } from 'react';

/** How long 'Copied' stays up (workspace §9). */
export const COPIED_TOOLTIP_MS = 1500;

export function CopyBlock({ label, text }: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      // Clipboard failures are only logged (workspace §8); the text stays selectable.
      console.warn('Copy failed', error);
      return;
    }
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_TOOLTIP_MS);
  };

  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        component="pre"
        aria-label={label}
        // Long lines scroll sideways: focusable so keyboard users can scroll it too.
        tabIndex={0}
        sx={{ p: 2, pr: 6, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto', fontSize: 13, m: 0 }}
      >
        {text}
      </Box>
      {/* Announced to screen readers as well as shown in the tooltip. */}
      <Box role="status" sx={visuallyHidden}>
        {copied ? 'Copied' : ''}
      </Box>
      <Tooltip title={copied ? 'Copied' : 'Copy'} open={copied || undefined}>
        <IconButton
          aria-label={`Copy ${label}`}
          onClick={() => void copy()}
          sx={{ position: 'absolute', top: 4, right: 4 }}
        >
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
