import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Workspace spec: retry up to 2 times, 100 ms first, doubling, at most 1 s. */
export const EDITOR_MAX_RETRIES = 2;
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 1000;

export const retryDelay = (retry: number) => Math.min(FIRST_DELAY_MS * 2 ** retry, MAX_DELAY_MS);

interface Props {
  /**
   * Renders the editor for one attempt. The attempt number changes on every retry so the child
   * can make a fresh `React.lazy` component: React caches a failed lazy import for good.
   */
  children: (attempt: number) => ReactNode;
  /** Shown while waiting to retry. */
  pending?: ReactNode;
}

interface State {
  attempt: number;
  retries: number;
  failed: boolean;
}

/** Keeps a failing editor (a chunk that did not load, a crash on mount) from taking the window down. */
export class EditorErrorBoundary extends Component<Props, State> {
  state: State = { attempt: 0, retries: 0, failed: false };
  private timer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('Editor failed to load', error, info.componentStack);
    const { retries } = this.state;
    if (retries >= EDITOR_MAX_RETRIES) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.setState((s) => ({ attempt: s.attempt + 1, retries: s.retries + 1, failed: false }));
    }, retryDelay(retries));
  }

  componentWillUnmount(): void {
    clearTimeout(this.timer);
  }

  private tryAgain = () => {
    clearTimeout(this.timer);
    this.setState((s) => ({ attempt: s.attempt + 1, retries: 0, failed: false }));
  };

  render(): ReactNode {
    const { attempt, retries, failed } = this.state;
    if (!failed) return this.props.children(attempt);
    if (retries < EDITOR_MAX_RETRIES) return this.props.pending ?? null;
    return (
      <Stack direction="row" spacing={1} role="alert" sx={{ alignItems: 'center', p: 1 }}>
        <Typography variant="body2" color="error">
          Editor failed to load after {EDITOR_MAX_RETRIES} attempts.
        </Typography>
        <Button size="small" onClick={this.tryAgain}>
          Try Again
        </Button>
      </Stack>
    );
  }
}
