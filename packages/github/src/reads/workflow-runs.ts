import type { GitHubClient } from '../client.js';
import type { RepoRef } from './repo-ref.js';

/** What one run of a workflow reports, in the terms the agent and the feed use. */
export interface RunSummary {
  id: number;
  name: string;
  headSha: string;
  headBranch: string | null;
  status: string;
  conclusion: string | null;
  htmlUrl: string;
  jobs: JobSummary[];
}

export interface JobSummary {
  id: number;
  name: string;
  status: string;
  conclusion: string | null;
  /** The first failed step's name, when a step failed. */
  failedStep: string | null;
}

/** Most bytes of a job's log read: its end, where the failure is. */
export const MAX_LOG_TAIL_BYTES = 20_000;

/** The newest runs of a commit (or of a branch), with their jobs; at most `limit` runs. */
export async function listRuns(
  octokit: GitHubClient,
  at: RepoRef,
  filter: { headSha?: string; branch?: string },
  limit = 10,
): Promise<RunSummary[]> {
  const { data } = await octokit.rest.actions.listWorkflowRunsForRepo({
    owner: at.owner,
    repo: at.repo,
    ...(filter.headSha ? { head_sha: filter.headSha } : {}),
    ...(filter.branch ? { branch: filter.branch } : {}),
    per_page: limit,
  });
  return Promise.all(
    data.workflow_runs.slice(0, limit).map(async (run) => ({
      id: run.id,
      name: run.name ?? 'Workflow',
      headSha: run.head_sha,
      headBranch: run.head_branch ?? null,
      status: run.status ?? 'queued',
      conclusion: run.conclusion ?? null,
      htmlUrl: run.html_url,
      jobs: await listJobs(octokit, at, run.id),
    })),
  );
}

export async function listJobs(octokit: GitHubClient, at: RepoRef, runId: number): Promise<JobSummary[]> {
  const { data } = await octokit.rest.actions.listJobsForWorkflowRun({
    owner: at.owner,
    repo: at.repo,
    run_id: runId,
    per_page: 100,
  });
  return data.jobs.map((job) => ({
    id: job.id,
    name: job.name,
    status: job.status,
    conclusion: job.conclusion ?? null,
    failedStep: job.steps?.find((s) => s.conclusion === 'failure')?.name ?? null,
  }));
}

/**
 * The end of a job's log (GitHub answers with a redirect to the file, which the client follows),
 * at most `maxBytes`, cut at a line start. Logs are written by the repository's own commands:
 * callers treat them as untrusted text.
 */
export async function jobLogTail(
  octokit: GitHubClient,
  at: RepoRef,
  jobId: number,
  maxBytes = MAX_LOG_TAIL_BYTES,
): Promise<{ text: string; truncated: boolean }> {
  const { data } = await octokit.rest.actions.downloadJobLogsForWorkflowRun({
    owner: at.owner,
    repo: at.repo,
    job_id: jobId,
  });
  const full = typeof data === 'string' ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
  const bytes = Buffer.from(full, 'utf8');
  if (bytes.length <= maxBytes) return { text: full, truncated: false };
  const tail = bytes.subarray(bytes.length - maxBytes).toString('utf8');
  const lineStart = tail.indexOf('\n');
  return { text: lineStart >= 0 ? tail.slice(lineStart + 1) : tail, truncated: true };
}
