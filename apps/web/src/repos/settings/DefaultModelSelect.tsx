import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { REVIEW_MODEL_NONE } from '@tandem/shared';
import { useId } from 'react';
import type { AvailableModel } from '../../agents/manager/model-choice';

const DEFAULT_VALUE = '__default__';

/**
 * A repository's default model or reviewer: 'Default' (null: the server's choice), for the reviewer
 * also 'None', then the models that can run on this server.
 */
export function DefaultModelSelect(props: {
  kind: 'core' | 'review';
  label: string;
  helper: string;
  models: readonly AvailableModel[];
  value: string | null;
  disabled?: boolean;
  onChange: (value: string | null) => void;
}) {
  const labelId = useId();
  const helperId = useId();
  const runnable = props.models.filter((m) => m.available);
  const stale =
    props.value !== null && props.value !== REVIEW_MODEL_NONE && !runnable.some((m) => m.key === props.value);
  return (
    <FormControl size="small" sx={{ minWidth: 260 }} disabled={props.disabled}>
      <InputLabel id={labelId}>{props.label}</InputLabel>
      <Select
        labelId={labelId}
        label={props.label}
        value={props.value ?? DEFAULT_VALUE}
        aria-describedby={helperId}
        onChange={(event) => props.onChange(event.target.value === DEFAULT_VALUE ? null : event.target.value)}
      >
        <MenuItem value={DEFAULT_VALUE}>Default</MenuItem>
        {props.kind === 'review' ? <MenuItem value={REVIEW_MODEL_NONE}>None</MenuItem> : null}
        {runnable.map((model) => (
          <MenuItem key={model.key} value={model.key}>
            <ListItemText primary={model.label} />
          </MenuItem>
        ))}
        {stale ? (
          // A default the server can no longer run still shows as chosen; new agents skip it.
          <MenuItem value={props.value!} disabled>
            {props.value} (unavailable)
          </MenuItem>
        ) : null}
      </Select>
      <FormHelperText id={helperId}>{props.helper}</FormHelperText>
    </FormControl>
  );
}
