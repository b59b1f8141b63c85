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

interface DiffEntry {
  filename: string;
  previous_filename?: string | undefined;
  status: string;
  additions: number;
  deletions: number;
}

const toCommitDiff = (file: DiffEntry): CommitDiff => ({
  filename: file.filename,
  previousFilename: file.previous_filename ?? null,
  status: diffStatus(file.status),
  additions: file.additions,
  deletions: file.deletions,
});

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
  return (data.files ?? []).map(toCommitDiff);
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

/** What a diff window needs of `base...head`: the merge base, the commits and the changed files. */
export interface CompareRange {
  mergeBase: string;
  commits: CommitSummary[];
  files: CommitDiff[];
}

/**
 * `base...head` with its file list: the files are the changes of head since the merge base (the
 * file list is capped by the host at 300, like GitHub's).
 */
export async function compareRange(
  octokit: GitHubClient,
  at: RepoRef & { base: string; head: string },
): Promise<CompareRange> {
  const { data } = await octokit.rest.repos.compareCommitsWithBasehead({
    owner: at.owner,
    repo: at.repo,
    basehead: `${at.base}...${at.head}`,
  });
  return {
    mergeBase: data.merge_base_commit.sha,
    commits: data.commits.map((c) => ({ title: firstLine(c.commit.message), sha: c.sha })),
    files: (data.files ?? []).map(toCommitDiff),
  };
}
