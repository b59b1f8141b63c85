import { canMerge } from '../git/repo-files.js';
import { commitsBetween, diffFiles, mergeBase, resolveRef } from '../git/repo-reads.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import type { Context } from './context.js';

/** A pull request in GitHub's REST shape (also the `pull_request` of webhook payloads). */
export async function pullJson(ctx: Context, repo: HostRepo, issue: HostIssue) {
  const pull = issue.pull!;
  const bare = ctx.host.repoPath(repo);
  const full = `${repo.owner}/${repo.name}`;
  const headSha = (await resolveRef(bare, `refs/heads/${pull.head}`)) ?? pull.mergeCommitSha ?? '';
  const baseSha = (await resolveRef(bare, `refs/heads/${pull.base}`)) ?? '';
  const commits = headSha && baseSha ? await commitsBetween(bare, baseSha, headSha) : [];
  const base = headSha && baseSha ? ((await mergeBase(bare, baseSha, headSha)) ?? baseSha) : baseSha;
  const files = headSha && base ? await diffFiles(bare, base, headSha) : [];
  const ref = (branch: string, sha: string) => ({
    label: `${repo.owner}:${branch}`,
    ref: branch,
    sha,
    repo: ctx.shapes.repo(repo),
    user: ctx.shapes.account(repo.owner),
  });
  const issueJson = ctx.shapes.issue(repo, issue);
  const api = `${ctx.shapes.apiUrl}/repos/${full}`;
  const url = `${api}/pulls/${issue.number}`;
  const htmlUrl = `${ctx.shapes.webUrl}/${full}/pull/${issue.number}`;
  // Exactly GitHub's pull request fields (its webhook schema allows no others).
  return {
    url,
    id: issueJson.id,
    node_id: `PR_${repo.id}_${issue.number}`,
    html_url: htmlUrl,
    diff_url: `${htmlUrl}.diff`,
    patch_url: `${htmlUrl}.patch`,
    issue_url: issueJson.url,
    number: issue.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    user: issueJson.user,
    body: issueJson.body,
    created_at: issue.createdAt,
    updated_at: issue.updatedAt,
    closed_at: issue.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    assignee: null,
    assignees: [],
    requested_reviewers: [],
    requested_teams: [],
    labels: [],
    milestone: null,
    draft: pull.draft,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${issue.number}/comments`,
    statuses_url: `${api}/statuses/${headSha}`,
    head: ref(pull.head, headSha),
    base: ref(pull.base, baseSha),
    _links: {
      self: { href: url },
      html: { href: htmlUrl },
      issue: { href: issueJson.url },
      comments: { href: `${api}/issues/${issue.number}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${api}/statuses/${headSha}` },
    },
    author_association: issueJson.author_association,
    auto_merge: null,
    active_lock_reason: null,
    merged: pull.merged,
    mergeable:
      pull.merged || issue.state === 'closed'
        ? null
        : headSha && baseSha
          ? await canMerge(bare, baseSha, headSha)
          : null,
    rebaseable: null,
    mergeable_state: 'clean',
    merged_by: pull.merged ? (pull.mergedBy ? ctx.shapes.account(pull.mergedBy) : null) : null,
    comments: issue.comments.length,
    review_comments: pull.reviewComments.length,
    maintainer_can_modify: false,
    commits: commits.length,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    changed_files: files.length,
  };
}

/**
 * The "simple pull request" GitHub puts in review and review-comment webhooks: the same object
 * without the merge state and the counts.
 */
export function simplePull(full: Awaited<ReturnType<typeof pullJson>>) {
  const {
    merged: _merged,
    mergeable: _mergeable,
    rebaseable: _rebaseable,
    mergeable_state: _mergeableState,
    merged_by: _mergedBy,
    comments: _comments,
    review_comments: _reviewComments,
    maintainer_can_modify: _maintainerCanModify,
    commits: _commits,
    additions: _additions,
    deletions: _deletions,
    changed_files: _changedFiles,
    ...simple
  } = full;
  return simple;
}
