import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useId } from 'react';

/** A labelled on/off setting with a line saying what it does. */
export function SettingSwitch(props: {
  label: string;
  description: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const descriptionId = useId();
  return (
    <Stack>
      <FormControlLabel
        label={props.label}
        disabled={props.disabled}
        control={
          <Switch
            checked={props.checked}
            onChange={(event) => props.onChange(event.target.checked)}
            slotProps={{ input: { 'aria-describedby': descriptionId } }}
          />
        }
      />
      <Typography id={descriptionId} variant="body2" color="text.secondary" sx={{ ml: 6 }}>
        {props.description}
      </Typography>
    </Stack>
  );
}
