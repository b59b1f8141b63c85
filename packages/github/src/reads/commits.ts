import type { GitHubClient } from '../client.js';
import type { BranchComparison, CommitDiff, CommitSummary } from '../schemas.js';
import { firstLine, type RepoRef } from './repo-ref.js';

export async function getCommit(
  octokit: GitHubClient,
  at: RepoRef & { ref: string },
): Promise<CommitSummary> {
  const { data } = await octokit.rest.repos.getCommit({ owner: at.owner, repo: at.repo, ref: at.ref });
  return { title: firstLine(data.commit.message), sha: data.sha };
}

/** GitHub's file statuses folded into the spec's four: a copy is a new file, the rest changed ones. */
function diffStatus(status: string): CommitDiff['status'] {
  if (status === 'added' || status === 'copied') return 'added';
  if (status === 'removed' || status === 'renamed') return status;
  return 'modified';
}

/** The files a commit touched (GitHub lists up to 300 on the first page; that is what we show). */
export async function getCommitDiffs(
  octokit: GitHubClient,
  at: RepoRef & { ref: string },
): Promise<CommitDiff[]> {
  const { data } = await octokit.rest.repos.getCommit({
    owner: at.owner,
    repo: at.repo,
    ref: at.ref,
    per_page: 300,
  });
  return (data.files ?? []).map((file) => ({
    filename: file.filename,
    previousFilename: file.previous_filename ?? null,
    status: diffStatus(file.status),
    additions: file.additions,
    deletions: file.deletions,
  }));
}

/**
 * `base...head`: what head adds since the merge base. GitHub caps the file list at 300, so the
 * file counts and line totals describe at most those.
 */
export async function compareBranches(
  octokit: GitHubClient,
  at: RepoRef & { base: string; head: string },
): Promise<BranchComparison> {
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    owner: at.owner,
    repo: at.repo,
    basehead: `${at.base}...${at.head}`,
  });
  const files = data.files ?? [];
  return {
    baseCommit: data.base_commit.sha,
    commits: data.commits.map((c) => ({ title: firstLine(c.commit.message), sha: c.sha })),
    aheadBy: data.ahead_by,
    behindBy: data.behind_by,
    filesChanged: files.length,
    totalAdditions: files.reduce((sum, f) => sum + f.additions, 0),
    totalDeletions: files.reduce((sum, f) => sum + f.deletions, 0),
  };
}
