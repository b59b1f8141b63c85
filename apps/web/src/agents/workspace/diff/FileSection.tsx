import AddCommentIcon from '@mui/icons-material/AddCommentOutlined';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DiffFile, FileContent } from '@tandem/shared';
import { memo, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useAddComment } from '../review-comments';
import { CommentForm } from './CommentForm';
import { EditorErrorBoundary } from './EditorErrorBoundary';
import { estimatedHeight } from './editor-options';
import { diffInput } from './large-diff';
import { lazyMonacoDiff } from './lazy-monaco';

const STATUS_COLOR = { added: 'success', removed: 'error', renamed: 'info', modified: 'default' } as const;

/** Why a file's contents cannot be shown (workspace spec texts), or null when they can. */
export function unshownReason(file: DiffFile): string | null {
  const sides: FileContent[] = [file.original, file.modified];
  if (sides.some((s) => s.status === 'binary')) return 'Binary file not shown';
  if (sides.some((s) => s.status === 'too_large')) return 'Large file hidden';
  if (sides.some((s) => s.status === 'error')) return 'Error displaying file';
  return null;
}

const text = (content: FileContent) => ('contents' in content ? content.contents : '');

/** True once the element has come near the viewport: a hundred files do not mount a hundred editors at once. */
function useSeen<T extends Element>() {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const node = ref.current;
    if (seen || !node) return;
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && setSeen(true),
      {
        rootMargin: '600px 0px',
      },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen] as const;
}

const Placeholder = ({ height, children }: { height: number; children?: string }) => (
  <Box sx={{ height, px: 1, py: 0.5, color: 'text.secondary', typography: 'body2' }}>{children}</Box>
);

function FileBody({ file, sideBySide }: { file: DiffFile; sideBySide: boolean }) {
  const [ref, seen] = useSeen<HTMLDivElement>();
  const reason = unshownReason(file);
  const input = useMemo(() => diffInput(text(file.original), text(file.modified)), [file]);
  if (reason) {
    const error = [file.original, file.modified].find((s) => s.status === 'error');
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ p: 1 }}
        title={error?.status === 'error' ? error.message : undefined}
      >
        {reason}
      </Typography>
    );
  }
  const height = estimatedHeight(input.original, input.modified);
  return (
    <div ref={ref}>
      {input.trimmed && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 1 }}>
          Large file: only the lines that differ are compared, from line {input.lineOffset + 1}.
        </Typography>
      )}
      {seen ? (
        <EditorErrorBoundary pending={<Placeholder height={height}>Loading editor…</Placeholder>}>
          {(attempt) => {
            const MonacoDiff = lazyMonacoDiff(attempt);
            return (
              <Suspense fallback={<Placeholder height={height}>Loading editor…</Placeholder>}>
                <MonacoDiff
                  path={file.filename}
                  original={input.original}
                  modified={input.modified}
                  sideBySide={sideBySide}
                  lineOffset={input.lineOffset}
                  height={height}
                />
              </Suspense>
            );
          }}
        </EditorErrorBoundary>
      ) : (
        <Placeholder height={height} />
      )}
    </div>
  );
}

interface Props {
  file: DiffFile;
  collapsed: boolean;
  viewed: boolean;
  sideBySide: boolean;
  onCollapsedChange: (path: string, collapsed: boolean) => void;
  onViewedChange: (path: string, viewed: boolean) => void;
}

/** One changed file: a header (path, status, counts, Viewed) over its collapsible diff. */
export const FileSection = memo(function FileSection(props: Props) {
  const { file, collapsed, viewed, sideBySide, onCollapsedChange, onViewedChange } = props;
  const path = file.filename;
  const canComment = useAddComment() !== null;
  const [commenting, setCommenting] = useState(false);
  return (
    <Box component="section" aria-label={path} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'center',
          px: 1,
          py: 0.25,
          bgcolor: 'action.hover',
          position: 'sticky',
          top: 0,
          zIndex: 2,
        }}
      >
        <IconButton
          size="small"
          aria-label={`${collapsed ? 'Expand' : 'Collapse'} ${path}`}
          aria-expanded={!collapsed}
          onClick={() => onCollapsedChange(path, !collapsed)}
        >
          {collapsed ? <ExpandMoreIcon fontSize="small" /> : <ExpandLessIcon fontSize="small" />}
        </IconButton>
        <Typography
          component="h3"
          variant="body2"
          sx={{
            fontFamily: 'monospace',
            flex: 1,
            minWidth: 0,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            cursor: 'pointer',
          }}
          title={file.previous_filename ? `${file.previous_filename} → ${path}` : path}
          onClick={() => onCollapsedChange(path, !collapsed)}
        >
          {path}
        </Typography>
        {file.previous_filename && file.previous_filename !== path && (
          <Typography variant="caption" color="text.secondary" noWrap sx={{ maxWidth: '30%' }}>
            from {file.previous_filename}
          </Typography>
        )}
        <Chip size="small" variant="outlined" color={STATUS_COLOR[file.status]} label={file.status} />
        <Typography variant="caption" sx={{ color: 'success.main', whiteSpace: 'nowrap' }}>
          +{file.additions}
        </Typography>
        <Typography variant="caption" sx={{ color: 'error.main', whiteSpace: 'nowrap' }}>
          −{file.deletions}
        </Typography>
        {canComment ? (
          <IconButton size="small" aria-label={`Comment on ${path}`} onClick={() => setCommenting((c) => !c)}>
            <AddCommentIcon fontSize="small" />
          </IconButton>
        ) : null}
        <FormControlLabel
          sx={{ mr: 0 }}
          label={<Typography variant="caption">Viewed</Typography>}
          control={
            <Checkbox
              size="small"
              checked={viewed}
              onChange={(e) => onViewedChange(path, e.target.checked)}
              slotProps={{ input: { 'aria-label': `Viewed ${path}` } }}
            />
          }
        />
      </Stack>
      {commenting ? <CommentForm file={file} onDone={() => setCommenting(false)} /> : null}
      {!collapsed && <FileBody file={file} sideBySide={sideBySide} />}
    </Box>
  );
});
