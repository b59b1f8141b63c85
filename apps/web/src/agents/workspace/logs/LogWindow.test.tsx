import type { AgentLog } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogWindow } from './LogWindow';

const AGENT_ID = '11111111-1111-4111-8111-111111111111';
const LOG_ID = '22222222-2222-4222-8222-222222222222';

function log(overrides: Partial<AgentLog> = {}): AgentLog {
  return {
    id: LOG_ID,
    path: '.tandem/run/test.sh',
    status_code: 0,
    started_at: '2026-03-01T10:00:00.000Z',
    duration: 12.34,
    trajectory_id: AGENT_ID,
    repo_name: 'acme/webapp',
    commit_sha: '0123456789abcdef0123456789abcdef01234567',
    script_contents: '#!/bin/sh\nnpm test',
    output: 'PASS src/login.test.ts\nTests: 3 passed',
    ...overrides,
  };
}

/** Answers each fetch with the next [status, body] (the last one repeats); records the URLs. */
function stubFetch(...answers: [number, unknown][]) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const [status, body] = answers[Math.min(urls.length, answers.length - 1)]!;
      urls.push(url);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return urls;
}

function renderLog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LogWindow agentId={AGENT_ID} logId={LOG_ID} />
    </QueryClientProvider>,
  );
}

describe('LogWindow', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('shows the path, state, timing, commit, script and output', async () => {
    const urls = stubFetch([200, log()]);
    renderLog();
    const output = await screen.findByTestId('log-output');
    expect(output.textContent).toBe('PASS src/login.test.ts\nTests: 3 passed');
    expect(screen.getByRole('region', { name: '.tandem/run/test.sh' })).toBeTruthy();
    expect(screen.getByText('Succeeded')).toBeTruthy();
    expect(screen.getByText(/12\.3 s/)).toBeTruthy();
    expect(screen.getByText('0123456')).toBeTruthy();
    const script = screen.getByRole('button', { name: 'Script' });
    expect(script.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(script);
    expect(script.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByLabelText('Script').textContent).toBe('#!/bin/sh\nnpm test');
    expect(urls).toEqual([`/api/agent/log?trajectory_id=${AGENT_ID}&log_id=${LOG_ID}`]);
  });

  it('shows a failed run with its exit code', async () => {
    stubFetch([200, log({ status_code: 2, duration: null, commit_sha: null })]);
    renderLog();
    expect(await screen.findByText('Failed (exit 2)')).toBeTruthy();
  });

  it('says so when the log cannot be read', async () => {
    stubFetch([404, { detail: 'Failed to fetch log', code: 'not_found' }]);
    renderLog();
    expect(await screen.findByText('Failed to fetch log')).toBeTruthy();
    expect(screen.queryByTestId('log-output')).toBeNull();
  });

  it('reads a running log again every 2.5 s until it finishes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const urls = stubFetch(
      [200, log({ status_code: null, duration: null, output: 'step 1' })],
      [200, log({ output: 'step 1\nstep 2' })],
    );
    renderLog();
    expect(await screen.findByText('Running')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(await screen.findByText('Succeeded')).toBeTruthy();
    expect(screen.getByTestId('log-output').textContent).toBe('step 1\nstep 2');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(urls).toHaveLength(2);
  });
});
