import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import { visuallyHidden } from '@mui/utils';

/**
 * The ▶/⏸ before an agent's title (workspace §4). Shown as an icon, since fonts without the glyphs
 * draw an empty box; the characters stay in the text for the accessible name, copying and search.
 */
export function WorkingGlyph({ working }: { working: boolean }) {
  const Icon = working ? PlayArrowIcon : PauseIcon;
  return (
    <>
      <Box component="span" sx={visuallyHidden}>
        {working ? '▶ ' : '⏸ '}
      </Box>
      <Icon aria-hidden fontSize="inherit" sx={{ verticalAlign: '-0.125em', mr: 0.5 }} />
    </>
  );
}
