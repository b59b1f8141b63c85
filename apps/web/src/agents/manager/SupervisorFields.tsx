import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useSupervisors } from './use-supervisors';

/** The admin-only choices of the new-agent form (workspace §5, §6). */
export interface SupervisorChoice {
  isSupervisor: boolean;
  supervisorId: string | null;
}

/**
 * Supervisor mode (a supervisor starts sub-agents) or, for an editor, the supervisor it reports
 * to: one of the admin's supervisors in the chosen repository.
 */
export function SupervisorFields(props: {
  repository: string | null;
  value: SupervisorChoice;
  disabled: boolean;
  onChange: (value: SupervisorChoice) => void;
}) {
  const { value, onChange } = props;
  const supervisors = useSupervisors(value.isSupervisor ? null : props.repository).data ?? [];
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <FormControlLabel
        control={
          <Switch
            checked={value.isSupervisor}
            disabled={props.disabled}
            onChange={(event) => onChange({ isSupervisor: event.target.checked, supervisorId: null })}
          />
        }
        label="Supervisor agent"
      />
      {!value.isSupervisor && supervisors.length ? (
        <TextField
          select
          size="small"
          label="Report to supervisor"
          value={value.supervisorId ?? ''}
          disabled={props.disabled}
          sx={{ minWidth: 220 }}
          onChange={(event) => onChange({ isSupervisor: false, supervisorId: event.target.value || null })}
        >
          <MenuItem value="">None</MenuItem>
          {supervisors.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.title}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
    </Stack>
  );
}
