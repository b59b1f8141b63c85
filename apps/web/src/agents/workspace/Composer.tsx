import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { MESSAGE_MAX_CHARS } from '@tandem/shared';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { readStored, removeStored, writeStored } from '../../lib/storage';
import { OutOfCreditsNotice } from '../OutOfCreditsNotice';

const unsentKey = (agentId: string) => `unsent:${agentId}`;

/**
 * The message box (workspace §5): Enter sends, Shift+Enter is a new line; the unsent text survives
 * reloads (session storage) and a failed send keeps it.
 */
export function Composer(props: { agentId: string; onSend: (message: string) => Promise<unknown> }) {
  const [text, setText] = useState(() => readStored(unsentKey(props.agentId), 'session') ?? '');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<'credits' | 'other' | null>(null);

  const update = (value: string) => {
    setText(value);
    if (value) writeStored(unsentKey(props.agentId), value, 'session');
    else removeStored(unsentKey(props.agentId), 'session');
  };
  const send = async () => {
    const message = text;
    if (!message.trim() || sending) return;
    setSending(true);
    setProblem(null);
    update('');
    try {
      await props.onSend(message);
    } catch (error) {
      update(message);
      setProblem(error instanceof ApiError && error.status === 402 ? 'credits' : 'other');
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack spacing={1}>
      {problem === 'credits' ? <OutOfCreditsNotice /> : null}
      {problem === 'other' ? (
        <Alert severity="error">Error sending message. Please try again later.</Alert>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-end' }}>
        <TextField
          label="Message"
          multiline
          fullWidth
          maxRows={20}
          value={text}
          slotProps={{ htmlInput: { maxLength: MESSAGE_MAX_CHARS } }}
          onChange={(e) => update(e.target.value)}
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
          disabled={sending || !text.trim()}
          startIcon={sending ? <CircularProgress size={16} /> : undefined}
        >
          Send
        </Button>
      </Stack>
    </Stack>
  );
}
