import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';

/**
 * The new-agent form's repository picker: the user's repositories, last used first. A name typed in
 * is taken as it is (owner/name), so an agent can start on a repository that is not listed yet.
 */
export function RepositoryField(props: {
  value: string;
  options: string[];
  error: string | null;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <Autocomplete
      freeSolo
      autoHighlight
      options={props.options}
      inputValue={props.value}
      onInputChange={(_event, value) => props.onChange(value)}
      disabled={props.disabled}
      sx={{ flex: 2, minWidth: 220 }}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Repository"
          placeholder="owner/name"
          size="small"
          error={props.error !== null}
          helperText={props.error ?? undefined}
        />
      )}
    />
  );
}
