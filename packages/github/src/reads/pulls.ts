import type { GitHubClient } from '../client.js';
import type { CommitSummary, PullSummary } from '../schemas.js';
import { firstLine, type RepoRef } from './repo-ref.js';

export async function getPullSummary(
  octokit: GitHubClient,
  at: RepoRef & { number: number },
): Promise<PullSummary> {
  const { data } = await octokit.rest.pulls.get({ owner: at.owner, repo: at.repo, pull_number: at.number });
  return {
    title: data.title,
    body: data.body ?? '',
    headBranch: data.head.ref,
    baseBranch: data.base.ref,
    baseSha: data.base.sha,
    commits: data.commits,
    mergeCommitSha: data.merge_commit_sha ?? null,
    mergeable: data.mergeable ?? null,
  };
}

/**
 * A pull request's commits, oldest first, all pages. Workspace §7 sends an empty If-None-Match so
 * an HTTP cache between us and the host can never answer 304 with a stale list after a push.
 */
export async function listPullCommits(
  octokit: GitHubClient,
  at: RepoRef & { number: number },
): Promise<CommitSummary[]> {
  const commits = await octokit.paginate(octokit.rest.pulls.listCommits, {
    owner: at.owner,
    repo: at.repo,
    pull_number: at.number,
    per_page: 100,
    headers: { 'if-none-match': '' },
  });
  return commits.map((c) => ({ title: firstLine(c.commit.message), sha: c.sha }));
}

/** The numbers of the pull requests that contain a commit. */
export async function pullsForCommit(
  octokit: GitHubClient,
  at: RepoRef & { sha: string },
): Promise<number[]> {
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
    owner: at.owner,
    repo: at.repo,
    commit_sha: at.sha,
    per_page: 100,
  });
  return data.map((pull) => pull.number);
}
