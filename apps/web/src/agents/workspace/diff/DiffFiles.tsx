import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { DIFF_MAX_FILES, type DiffFile } from '@tandem/shared';
import { useCallback, useState, type ReactNode } from 'react';
import { useSideBySide } from './editor-options';
import { FileSection } from './FileSection';
import { useViewedFiles } from './use-viewed';

interface Props {
  /** Scope of the Viewed marks (`markScope`). */
  scope: string;
  /** Undefined while loading: the toolbar shows, the list waits. */
  files: DiffFile[] | undefined;
  truncated: boolean;
  /** Extra controls at the start of the toolbar (the commit range). */
  controls?: ReactNode;
}

/**
 * The changed files with the toolbar over them. A file starts collapsed when it is marked Viewed;
 * the user's own collapse choice is kept per path and content hash, so once a file's content
 * changes (and its mark goes) it opens again.
 */
const LOADING: DiffFile[] = [];

export function DiffFiles({ scope, files: loaded, truncated, controls }: Props) {
  const files = loaded ?? LOADING;
  const viewed = useViewedFiles(scope, files);
  const [sideBySide, setSideBySide] = useSideBySide();
  const [overrides, setOverrides] = useState<Record<string, boolean>>({});
  const { hashOf, isViewed, setViewed } = viewed;
  const keyOf = useCallback((path: string) => `${path}\u0000${hashOf(path) ?? ''}`, [hashOf]);
  const isCollapsed = (path: string) => overrides[keyOf(path)] ?? isViewed(path);
  const allCollapsed = files.length > 0 && files.every((f) => isCollapsed(f.filename));

  const onCollapsedChange = useCallback(
    (path: string, collapsed: boolean) => setOverrides((o) => ({ ...o, [keyOf(path)]: collapsed })),
    [keyOf],
  );
  const onViewedChange = useCallback(
    (path: string, marked: boolean) => {
      setViewed(path, marked);
      // Marking a file viewed folds it away; un-marking brings it back.
      setOverrides((o) => ({ ...o, [keyOf(path)]: marked }));
    },
    [setViewed, keyOf],
  );
  const toggleAll = () =>
    setOverrides((o) => ({
      ...o,
      ...Object.fromEntries(files.map((f) => [keyOf(f.filename), !allCollapsed])),
    }));

  return (
    <Stack sx={{ minHeight: 0 }}>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{
          alignItems: 'center',
          flexWrap: 'wrap',
          px: 1,
          py: 0.5,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        {controls}
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {!loaded ? '' : files.length === 1 ? '1 file changed' : `${files.length} files changed`}
        </Typography>
        <FormControlLabel
          label={<Typography variant="body2">Side by side</Typography>}
          control={
            <Switch size="small" checked={sideBySide} onChange={(e) => setSideBySide(e.target.checked)} />
          }
        />
        <Button size="small" onClick={toggleAll} disabled={files.length === 0}>
          {allCollapsed ? 'Expand all' : 'Collapse all'}
        </Button>
      </Stack>
      {truncated && (
        <Typography variant="body2" color="warning.main" sx={{ px: 1, py: 0.5 }}>
          Only the first {DIFF_MAX_FILES} files are shown.
        </Typography>
      )}
      {loaded && files.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          No changes.
        </Typography>
      )}
      {viewed.ready &&
        files.map((file) => (
          <FileSection
            key={file.filename}
            file={file}
            collapsed={isCollapsed(file.filename)}
            viewed={isViewed(file.filename)}
            sideBySide={sideBySide}
            onCollapsedChange={onCollapsedChange}
            onViewedChange={onViewedChange}
          />
        ))}
    </Stack>
  );
}
