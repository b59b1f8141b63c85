import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SpiceItem } from '@tandem/shared';
import { memo, useEffect, useId, useRef } from 'react';
import { SpicePartView } from './SpicePartView';
import { formatResponseStats, roleLabel } from './spice-format';

/**
 * The first messages of a context are the system prompt and the task, long and rarely what an
 * admin came for: on opening, the window scrolls to the message after them (the third).
 */
const FIRST_INTERESTING_INDEX = 2;

const SpiceCard = memo(function SpiceCard({ item }: { item: SpiceItem }) {
  const stats = item.response_stats ? formatResponseStats(item.response_stats) : '';
  return (
    <Paper
      component="article"
      variant="outlined"
      sx={{ p: 1.5, bgcolor: item.role === 'user' ? 'action.hover' : undefined }}
      aria-label={`${roleLabel(item.role)} message`}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', mb: 1 }}>
        <Typography component="h3" variant="subtitle2">
          {roleLabel(item.role)}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          <time dateTime={item.timestamp}>{new Date(item.timestamp).toLocaleString()}</time>
        </Typography>
      </Stack>
      <Stack spacing={1}>
        {item.content.map((part, index) => (
          // Parts have no ids and never reorder within a stored message.
          <SpicePartView key={index} part={part} />
        ))}
      </Stack>
      {stats ? (
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', mt: 1 }}
          data-testid="spice-stats"
        >
          {stats}
        </Typography>
      ) : null}
    </Paper>
  );
});

/**
 * The admins' Spice Messages tab: the model's own context, message by message.
 *
 * Every message stays in the DOM (so find-in-page and the scroll-to-third-message work without a
 * virtualiser's measuring), and `content-visibility: auto` lets the browser skip layout and paint
 * of the cards off screen, which keeps hundreds of long messages cheap. Cards are memoised, so a
 * new page of spice re-renders only the new cards.
 */
export function SpiceWindow(props: { spice: SpiceItem[] }) {
  const headingId = useId();
  const firstInteresting = useRef<HTMLLIElement>(null);
  const scrolled = useRef(false);
  const count = props.spice.length;

  useEffect(() => {
    // Only once: later pages of spice must not yank the reader back.
    if (scrolled.current || count <= FIRST_INTERESTING_INDEX) return;
    scrolled.current = true;
    firstInteresting.current?.scrollIntoView({ block: 'start' });
  }, [count]);

  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} component="h2" variant="subtitle1" sx={{ mb: 1 }}>
        Spice Messages
      </Typography>
      {count === 0 ? (
        <Typography color="text.secondary">No spice messages yet.</Typography>
      ) : (
        <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', m: 0, p: 0 }}>
          {props.spice.map((item, index) => (
            <Box
              component="li"
              key={item.id}
              ref={index === FIRST_INTERESTING_INDEX ? firstInteresting : undefined}
              sx={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 160px' }}
            >
              <SpiceCard item={item} />
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
