import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { rangeLabel, rangeToSlider, sliderToRange, type CommitRange, type RangeStop } from './range';

interface Props {
  stops: RangeStop[];
  /** The user's range, or null for the whole branch (which follows new commits). */
  value: CommitRange | null;
  onChange: (range: CommitRange | null) => void;
}

const STOP_HEIGHT = 36;

/** The commit-range picker: a button that opens a popover with a vertical two-thumb slider, newest on top. */
export function RangeSelector({ stops, value, onChange }: Props) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const positions = rangeToSlider(stops, value);
  // While dragging the thumbs move freely; the range is only applied on release.
  const [dragging, setDragging] = useState<number[] | null>(null);
  if (!positions) return null;
  const [from, to] = positions;
  const current = sliderToRange(stops, positions);
  const close = () => {
    setAnchor(null);
    setDragging(null);
  };

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        // The visible text is part of the name (WCAG 2.5.3), after what the button is for.
        aria-label={`Commit range: ${current ? rangeLabel(stops, current) : 'all commits'}`}
        aria-haspopup="dialog"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: 'none' }}
      >
        {current ? rangeLabel(stops, current) : 'Commit range'}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Choose commit range' } }}
      >
        <Stack spacing={1} sx={{ p: 2, width: 380 }}>
          <Typography variant="subtitle2">Commits</Typography>
          <Slider
            orientation="vertical"
            min={0}
            max={stops.length - 1}
            step={1}
            value={dragging ?? [from, to]}
            onChange={(_, v) => setDragging(Array.isArray(v) ? v : [v, v])}
            onChangeCommitted={(_, v) => {
              setDragging(null);
              const range = sliderToRange(stops, Array.isArray(v) ? v : [v]);
              if (range) onChange(range);
            }}
            marks={stops.map((stop, index) => ({ value: index, label: stop.label }))}
            getAriaLabel={(thumb) => (thumb === 0 ? 'From' : 'To')}
            getAriaValueText={(index) => stops[index]?.label ?? ''}
            valueLabelDisplay="off"
            sx={{
              height: Math.max((stops.length - 1) * STOP_HEIGHT, 80),
              alignSelf: 'flex-start',
              ml: 1,
              '& .MuiSlider-markLabel': {
                maxWidth: 320,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                typography: 'caption',
              },
            }}
          />
          <Button
            size="small"
            sx={{ alignSelf: 'flex-end' }}
            onClick={() => {
              onChange(null);
              close();
            }}
          >
            Whole branch
          </Button>
        </Stack>
      </Popover>
    </>
  );
}
