import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import { useMemo } from 'react';
import { renderMessageMarkdown } from './message-markdown';

/** People's and models' Markdown (messages, pull-request bodies, comments), sanitised. */
export function Markdown({ source, sx }: { source: string; sx?: SxProps<Theme> }) {
  const html = useMemo(() => renderMessageMarkdown(source), [source]);
  return (
    <Box
      sx={[
        {
          overflowWrap: 'anywhere',
          '& > :first-of-type': { mt: 0 },
          '& > :last-child': { mb: 0 },
          '& p, & ul, & ol, & pre, & table, & blockquote': { my: 0.75 },
          '& h1, & h2, & h3, & h4': { fontSize: '1rem', fontWeight: 600, my: 0.75 },
          '& pre': { p: 1, borderRadius: 1, bgcolor: 'action.hover', overflowX: 'auto' },
          '& code': { fontFamily: 'monospace', fontSize: '0.875em' },
          '& blockquote': { pl: 1.5, ml: 0, borderLeft: 3, borderColor: 'divider', color: 'text.secondary' },
          '& table': { borderCollapse: 'collapse' },
          '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.25 },
          '& a': { color: 'primary.main' },
        },
        ...(Array.isArray(sx) ? sx : sx ? [sx] : []),
      ]}
      // Sanitised by renderMessageMarkdown (DOMPurify, no images, forms, styles or ids).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
