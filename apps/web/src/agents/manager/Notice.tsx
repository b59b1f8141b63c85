import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import type { ReactNode } from 'react';

export interface Notice {
  message: ReactNode;
  severity: 'success' | 'error' | 'info' | 'warning';
  /** How long it stays, in ms. */
  duration?: number;
}

export type Notify = (notice: Notice) => void;

export const NOTICE_MS = 6000;

/** The manager's one snackbar; a new notice replaces the one showing. */
export function NoticeSnackbar(props: { notice: (Notice & { key: number }) | null; onClose: () => void }) {
  const { notice, onClose } = props;
  return (
    <Snackbar
      key={notice?.key}
      open={notice !== null}
      autoHideDuration={notice?.duration ?? NOTICE_MS}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
    >
      {notice ? (
        <Alert severity={notice.severity} variant="filled" onClose={onClose} sx={{ width: '100%' }}>
          {notice.message}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
