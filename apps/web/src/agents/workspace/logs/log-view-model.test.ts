import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client';
import { retryUnlessClientError } from '../../../api/retry';
import { agentLogUrl, formatDuration, logState, logTabTitle } from './log-view-model';

describe('log view model', () => {
  it('titles a tab with the script base name, else Log', () => {
    expect(logTabTitle('.tandem/run/test.sh')).toBe('test.sh');
    expect(logTabTitle('build.sh')).toBe('build.sh');
    expect(logTabTitle('')).toBe('Log');
    expect(logTabTitle('/')).toBe('Log');
  });

  it('reads the exit code as a state', () => {
    expect(logState(0)).toEqual({ label: 'Succeeded', color: 'success' });
    expect(logState(2)).toEqual({ label: 'Failed (exit 2)', color: 'error' });
    expect(logState(null)).toEqual({ label: 'Running', color: 'info' });
  });

  it('shows durations in seconds with one decimal', () => {
    expect(formatDuration(12.345)).toBe('12.3 s');
    expect(formatDuration(0)).toBe('0.0 s');
  });

  it('builds the log URL', () => {
    expect(agentLogUrl('a-1', 'l-1')).toBe('/api/agent/log?trajectory_id=a-1&log_id=l-1');
  });

  it('retries only server and network failures', () => {
    expect(retryUnlessClientError(0, new ApiError('x', 404))).toBe(false);
    expect(retryUnlessClientError(0, new ApiError('x', 502))).toBe(true);
    expect(retryUnlessClientError(2, new ApiError('x', 0))).toBe(false);
  });
});
