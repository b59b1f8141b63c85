import type { Actor } from '../host.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import type { RunRecords } from './run-records.js';

/**
 * What the rest of the code host sees of the local CI (Context.ci): the records the REST
 * endpoints and pages read, and the two moments that start runs. Both return at once: runs are
 * made and queued in the background, so no push or request waits for CI.
 */
export interface CiHandle {
  records: RunRecords;
  /** A branch moved to `sha`: `push` workflows, and `pull_request` ones for its open pulls. */
  pushed(repo: HostRepo, branch: string, sha: string, actor: Actor): void;
  /** A pull request was opened: its head's `pull_request` workflows. */
  pullOpened(repo: HostRepo, issue: HostIssue, actor: Actor): void;
  /** A short-lived signature for a job's log link (GitHub's log download redirects to one). */
  logToken(jobId: number): string;
  verifyLogToken(jobId: number, token: string): boolean;
}
