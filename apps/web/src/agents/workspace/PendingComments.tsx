import CancelIcon from '@mui/icons-material/Cancel';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { PendingReviewComment } from './review-comments';

/** Review comments waiting for the next message; each can be deleted while unsent. */
export function PendingComments(props: { comments: PendingReviewComment[]; onDelete: (id: string) => void }) {
  if (!props.comments.length) return null;
  return (
    <Stack spacing={0.5} aria-label="Pending review comments" role="list">
      <Typography variant="caption" color="text.secondary">
        {props.comments.length === 1
          ? '1 review comment goes out with your next message'
          : `${props.comments.length} review comments go out with your next message`}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        {props.comments.map((comment) => (
          <Chip
            key={comment.id}
            role="listitem"
            size="small"
            label={`${comment.path}:${comment.line} · ${comment.body}`}
            sx={{ maxWidth: 420 }}
            onDelete={() => props.onDelete(comment.id)}
            deleteIcon={<CancelIcon titleAccess={`Delete comment on ${comment.path} line ${comment.line}`} />}
          />
        ))}
      </Stack>
    </Stack>
  );
}
