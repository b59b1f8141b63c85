import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MESSAGE_MAX_CHARS, sunsetClosed, sunsetInputNotice } from '@tandem/shared';
import { useEffect, useState, type RefObject } from 'react';
import { ApiError } from '../../api/client';
import { useClientConfig } from '../../api/config';
import { readStored, readStoredJson, removeStored, writeStored } from '../../lib/storage';
import { OutOfCreditsNotice } from '../OutOfCreditsNotice';
import type { ImageAttachment } from '../manager/image-files';
import { ImageAttachments } from '../manager/ImageAttachments';
import { useImageAttachments } from '../manager/use-image-attachments';
import { usePendingComments, type PendingReviewComment } from './review-comments';
import { PendingComments } from './PendingComments';

const unsentKey = (agentId: string) => `unsent:${agentId}`;
const unsentImagesKey = (agentId: string) => `unsentImages:${agentId}`;

function readUnsentImages(agentId: string): ImageAttachment[] {
  const parsed = readStoredJson(unsentImagesKey(agentId), 'session');
  return Array.isArray(parsed) ? (parsed as ImageAttachment[]) : [];
}

/** Kept per agent for a reload; a list over the storage quota is simply not kept (workspace §8). */
function writeUnsentImages(agentId: string, images: ImageAttachment[]) {
  if (images.length) writeStored(unsentImagesKey(agentId), JSON.stringify(images), 'session');
  else removeStored(unsentImagesKey(agentId), 'session');
}

/**
 * The message box (workspace §5): Enter sends, Shift+Enter is a new line; images by picker or
 * paste; the unsent text and images survive reloads (session storage) and a failed send keeps them.
 */
export function Composer(props: {
  agentId: string;
  onSend: (message: string, images: ImageAttachment[], comments: PendingReviewComment[]) => Promise<unknown>;
  /** Filled with a way to add an image from elsewhere in the workspace (a preview screenshot). */
  attachRef?: RefObject<((image: ImageAttachment) => void) | null>;
  /** Party mode: no images, the operator's length cap, and the server's reason when it refuses. */
  textOnly?: boolean;
  maxChars?: number;
  explainErrors?: boolean;
}) {
  const pendingComments = usePendingComments(props.agentId);
  const [text, setText] = useState(() => readStored(unsentKey(props.agentId), 'session') ?? '');
  const [initialImages] = useState(() => readUnsentImages(props.agentId));
  const attachments = useImageAttachments(initialImages, (images) =>
    writeUnsentImages(props.agentId, images),
  );
  useEffect(() => {
    if (props.attachRef) props.attachRef.current = attachments.append;
  });
  const [sending, setSending] = useState(false);
  const sunset = useClientConfig().data?.sunset ?? null;
  const [problem, setProblem] = useState<'credits' | 'other' | null>(null);
  const [reason, setReason] = useState<string | null>(null);

  const update = (value: string) => {
    setText(value);
    if (value) writeStored(unsentKey(props.agentId), value, 'session');
    else removeStored(unsentKey(props.agentId), 'session');
  };
  // Text, an image or an unsent review comment (workspace §5).
  const canSend =
    text.trim().length > 0 || attachments.images.length > 0 || pendingComments.comments.length > 0;
  const send = async () => {
    const message = text;
    const images = attachments.images;
    const comments = pendingComments.comments;
    if (!canSend || sending) return;
    setSending(true);
    setProblem(null);
    setReason(null);
    update('');
    attachments.clear();
    try {
      await props.onSend(message, images, comments);
      pendingComments.markSent(comments.map((c) => c.id));
    } catch (error) {
      update(message);
      attachments.restore(images);
      setProblem(error instanceof ApiError && error.status === 402 ? 'credits' : 'other');
      // The party's limits (429 rate or daily cap, 413/422 size, 403 lead) say what to do.
      if (props.explainErrors && error instanceof ApiError && error.status >= 400 && error.status < 500)
        setReason(error.serverMessage);
    } finally {
      setSending(false);
    }
  };

  if (sunset && sunsetClosed(sunset))
    return (
      <Stack spacing={1} role="form" aria-label="Send a message">
        <Alert severity="info">{sunsetInputNotice(sunset)}</Alert>
        <TextField label="Message" multiline fullWidth disabled value={text} />
      </Stack>
    );

  return (
    <Stack spacing={1} role="form" aria-label="Send a message">
      {problem === 'credits' ? <OutOfCreditsNotice /> : null}
      <PendingComments comments={pendingComments.comments} onDelete={pendingComments.remove} />
      {problem === 'other' ? (
        <Alert severity="error">{reason ?? 'Error sending message. Please try again later.'}</Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end' }}>
        <TextField
          label="Message"
          multiline
          fullWidth
          maxRows={20}
          value={text}
          slotProps={{ htmlInput: { maxLength: props.maxChars ?? MESSAGE_MAX_CHARS } }}
          onChange={(e) => update(e.target.value)}
          onPaste={props.textOnly ? undefined : attachments.onPaste}
          error={attachments.problem !== null}
          helperText={attachments.problem ?? undefined}
          onKeyDown={(e) => {
            const small = window.matchMedia('(max-width: 600px)').matches;
            if (e.key === 'Enter' && !e.shiftKey && !small) {
              e.preventDefault();
              void send();
            }
          }}
        />
        <Button
          variant="contained"
          onClick={() => void send()}
          disabled={sending || !canSend}
          startIcon={sending ? <CircularProgress size={16} /> : undefined}
        >
          Send
        </Button>
      </Stack>
      {props.textOnly ? null : (
        <ImageAttachments
          images={attachments.images}
          disabled={sending}
          onAdd={(files) => void attachments.add(files)}
          onRemove={attachments.remove}
        />
      )}
    </Stack>
  );
}
