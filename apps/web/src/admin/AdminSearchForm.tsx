import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';

/** The search box above an admin table; searching starts on submit (Enter or the button). */
export function AdminSearchForm(props: {
  name: string;
  label: string;
  value: string;
  onSearch: (term: string) => void;
}) {
  const [draft, setDraft] = useState(props.value);
  return (
    <Stack
      component="form"
      role="search"
      aria-label={props.name}
      direction="row"
      spacing={1}
      sx={{ mb: 2 }}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSearch(draft);
      }}
    >
      <TextField
        label={props.label}
        size="small"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <Button type="submit" variant="outlined">
        Search
      </Button>
    </Stack>
  );
}
