import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import type { DiffFile } from '@tandem/shared';
import { useAddComment } from '../review-comments';

/**
 * A review comment on one line of a file: it waits, deletable, above the message box and goes
 * out with the next message (workspace §3, §5). A removed file is commented on its old side.
 */
export function CommentForm(props: { file: DiffFile; onDone: () => void }) {
  const add = useAddComment();
  const [line, setLine] = useState('');
  const [body, setBody] = useState('');
  const lineNumber = Number(line);
  const lineError = line !== '' && (!Number.isInteger(lineNumber) || lineNumber < 1);
  if (!add) return null;
  const submit = () => {
    if (!body.trim() || lineError || line === '') return;
    add({
      path: props.file.filename,
      body: body.trim(),
      line: lineNumber,
      side: props.file.status === 'removed' ? 'LEFT' : 'RIGHT',
    });
    props.onDone();
  };
  return (
    <Stack
      component="form"
      aria-label={`Comment on ${props.file.filename}`}
      direction="row"
      spacing={1}
      sx={{ p: 1, alignItems: 'flex-start' }}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <TextField
        label="Line"
        size="small"
        value={line}
        onChange={(e) => setLine(e.target.value.replace(/\D/g, ''))}
        error={lineError}
        sx={{ width: 90 }}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
      <TextField
        label="Comment"
        size="small"
        fullWidth
        multiline
        maxRows={6}
        value={body}
        onChange={(e) => setBody(e.target.value)}
      />
      <Button type="submit" variant="contained" size="small" disabled={!body.trim() || line === ''}>
        Add comment
      </Button>
      <Button size="small" onClick={props.onDone}>
        Cancel
      </Button>
    </Stack>
  );
}
