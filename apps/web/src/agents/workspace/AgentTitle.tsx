import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { titleError } from '@tandem/shared';
import { useState } from 'react';
import { WorkingGlyph } from '../WorkingGlyph';

/** The editable title (workspace §5): 2–200 characters, no line breaks, cut at 200. */
export function AgentTitle(props: {
  title: string;
  working: boolean;
  canEdit: boolean;
  onRename: (title: string) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const title = shown ?? props.title;

  if (draft === null) {
    return (
      <Typography
        variant="h6"
        component="h1"
        title={props.canEdit ? 'Click to rename' : undefined}
        onClick={() => props.canEdit && setDraft(title)}
        sx={{ cursor: props.canEdit ? 'text' : 'default', overflow: 'hidden', textOverflow: 'ellipsis' }}
      >
        <WorkingGlyph working={props.working} />
        {title}
        {failure ? (
          <Typography component="span" color="error" variant="body2" sx={{ ml: 1 }}>
            {failure}
          </Typography>
        ) : null}
      </Typography>
    );
  }
  const error = titleError(draft);
  const save = async () => {
    if (error) return;
    const next = draft;
    setDraft(null);
    setShown(next);
    setFailure(null);
    try {
      await props.onRename(next);
    } catch {
      setShown(null); // the old title comes back
      setFailure('Failed to update title');
    }
  };
  return (
    <TextField
      autoFocus
      size="small"
      label="Title"
      value={draft}
      error={error !== null}
      helperText={error ?? ' '}
      onChange={(e) => setDraft(e.target.value.slice(0, 200))}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          void save();
        }
        if (e.key === 'Escape') setDraft(null);
      }}
      onBlur={() => setDraft(null)}
      sx={{ minWidth: 320 }}
    />
  );
}
