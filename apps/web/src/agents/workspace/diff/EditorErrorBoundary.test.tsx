import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EditorErrorBoundary, retryDelay } from './EditorErrorBoundary';

/** Fails on the attempts listed, renders the editor on the others. */
function Flaky({ attempt, failing }: { attempt: number; failing: Set<number> }) {
  if (failing.has(attempt)) throw new Error(`chunk failed (${attempt})`);
  return <p>Editor {attempt}</p>;
}

const renderFlaky = (failing: number[]) =>
  render(
    <EditorErrorBoundary pending={<p>Retrying</p>}>
      {(attempt) => <Flaky attempt={attempt} failing={new Set(failing)} />}
    </EditorErrorBoundary>,
  );

describe('EditorErrorBoundary', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // React reports caught errors to the console; the test expects them.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('waits 100 ms, doubling, at most 1 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(retryDelay)).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('retries with a fresh attempt after 100 ms and then 200 ms', () => {
    renderFlaky([0, 1]);
    expect(screen.getByText('Retrying')).toBeTruthy();
    act(() => vi.advanceTimersByTime(99));
    expect(screen.queryByText(/Editor \d/)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    // Attempt 1 failed too: the next wait is 200 ms.
    expect(screen.getByText('Retrying')).toBeTruthy();
    act(() => vi.advanceTimersByTime(199));
    expect(screen.queryByText(/Editor \d/)).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText('Editor 2')).toBeTruthy();
  });

  it('gives up after 2 retries, and Try Again starts over', () => {
    renderFlaky([0, 1, 2]);
    act(() => vi.advanceTimersByTime(100));
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByText('Editor failed to load after 2 attempts.')).toBeTruthy();
    // No more automatic retries.
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByText('Editor failed to load after 2 attempts.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Editor 3')).toBeTruthy();
  });
});
