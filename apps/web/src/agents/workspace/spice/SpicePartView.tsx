import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { partImageUrl, partText, type SpicePart } from './spice-format';

const preWrap = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** One content part of a spice message: text, thinking, an image, or 'Unsupported Message Type'. */
export function SpicePartView({ part }: { part: SpicePart }) {
  switch (part.type) {
    case 'text':
      return <Typography sx={preWrap}>{partText(part.text)}</Typography>;
    case 'thinking':
      // Set apart from what the model said: labelled, muted and italic, behind a rule.
      return (
        <Box
          role="note"
          aria-label="Thinking"
          sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5, color: 'text.secondary' }}
        >
          <Typography variant="caption" sx={{ fontWeight: 600 }}>
            Thinking
          </Typography>
          <Typography variant="body2" sx={{ ...preWrap, fontStyle: 'italic' }}>
            {partText(part.thinking)}
          </Typography>
        </Box>
      );
    case 'image_url': {
      const src = partImageUrl(part.image_url);
      if (!src)
        return (
          <Typography variant="body2" color="text.secondary">
            Image not available
          </Typography>
        );
      return (
        <Box
          component="img"
          src={src}
          alt="Image"
          loading="lazy"
          sx={{ display: 'block', maxHeight: 300, maxWidth: '100%', objectFit: 'contain' }}
        />
      );
    }
    default:
      return (
        <Typography variant="body2" color="text.secondary">
          Unsupported Message Type
        </Typography>
      );
  }
}
