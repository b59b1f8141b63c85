import type { AgentLog } from '@tandem/shared';

/** Workspace §7's poll period: a log still running is read again this often. */
export const RUNNING_LOG_POLL_MS = 2500;

export function agentLogUrl(agentId: string, logId: string): string {
  const params = new URLSearchParams({ trajectory_id: agentId, log_id: logId });
  return `/api/agent/log?${params.toString()}`;
}

/** The tab title of a log: the script's base name (`.tandem/run/test.sh` → `test.sh`), else 'Log'. */
export function logTabTitle(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? 'Log';
}

export type LogState = { label: string; color: 'success' | 'error' | 'info' };

/** The status chip: exit code 0 succeeded, any other failed, none yet means still running. */
export function logState(statusCode: AgentLog['status_code']): LogState {
  if (statusCode === null) return { label: 'Running', color: 'info' };
  if (statusCode === 0) return { label: 'Succeeded', color: 'success' };
  return { label: `Failed (exit ${statusCode})`, color: 'error' };
}

export const formatDuration = (seconds: number) => `${seconds.toFixed(1)} s`;

export const shortSha = (sha: string) => sha.slice(0, 7);
