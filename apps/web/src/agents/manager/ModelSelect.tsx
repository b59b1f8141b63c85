import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ReactNode } from 'react';
import { modelMenu, type AvailableModel } from './model-choice';

const OFF_VALUE = '__off__';

function option(model: AvailableModel): ReactNode {
  return (
    <MenuItem key={model.key} value={model.key} disabled={!model.available}>
      <ListItemText
        primary={model.label}
        secondary={model.available ? model.description : model.unavailable_reason}
        slotProps={{ secondary: { noWrap: true, sx: { maxWidth: 320 } } }}
      />
    </MenuItem>
  );
}

/**
 * A model selector fed by GET /api/models (workspace §9): recommended models first, admin-only ones
 * under 'Admin' for admins. The review selector adds 'Off' (null: no automatic reviewer).
 */
export function ModelSelect(props: {
  kind: 'core' | 'review';
  label: string;
  models: readonly AvailableModel[];
  admin: boolean;
  value: string | null;
  disabled?: boolean;
  sx?: SxProps<Theme>;
  onChange: (value: string | null) => void;
}) {
  const labelId = useId();
  const menu = modelMenu(props.models, props.kind, props.admin);
  const known = props.value === null || props.models.some((m) => m.key === props.value);
  const items: ReactNode[] = [];
  if (props.kind === 'review') {
    items.push(
      <MenuItem key={OFF_VALUE} value={OFF_VALUE}>
        <ListItemText primary="Off" />
      </MenuItem>,
    );
  }
  items.push(...menu.recommended.map(option), ...menu.others.map(option));
  // A default that is not in the list (e.g. the deployment lacks it) still shows as chosen.
  if (!known && props.value !== null) {
    items.push(
      <MenuItem key={props.value} value={props.value} disabled>
        {props.value}
      </MenuItem>,
    );
  }
  if (menu.adminOnly.length) {
    items.push(<ListSubheader key="admin-subheader">Admin</ListSubheader>, ...menu.adminOnly.map(option));
  }
  const selected = props.value === null ? OFF_VALUE : props.value;
  const labelOf = (value: string) =>
    value === OFF_VALUE ? 'Off' : (props.models.find((m) => m.key === value)?.label ?? value);

  return (
    <FormControl size="small" sx={props.sx ?? { minWidth: 170 }} disabled={props.disabled}>
      <InputLabel id={labelId}>{props.label}</InputLabel>
      <Select
        labelId={labelId}
        label={props.label}
        value={selected}
        renderValue={labelOf}
        onChange={(event) => props.onChange(event.target.value === OFF_VALUE ? null : event.target.value)}
      >
        {items}
      </Select>
    </FormControl>
  );
}
