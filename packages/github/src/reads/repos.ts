import type { GitHubClient } from '../client.js';
import type { IssueSummary } from '../schemas.js';
import type { RepoRef } from './repo-ref.js';

export async function getIssueSummary(
  octokit: GitHubClient,
  at: RepoRef & { number: number },
): Promise<IssueSummary> {
  const { data } = await octokit.rest.issues.get({ owner: at.owner, repo: at.repo, issue_number: at.number });
  return { title: data.title, body: data.body ?? '', comments: data.comments };
}

export async function getDefaultBranch(octokit: GitHubClient, at: RepoRef): Promise<string> {
  const { data } = await octokit.rest.repos.get({ owner: at.owner, repo: at.repo });
  return data.default_branch;
}
