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
  return {
    ...ctx.shapes.issue(repo, issue),
    id: Number(`${repo.id}${issue.number}`),
    url: `${ctx.shapes.apiUrl}/repos/${full}/pulls/${issue.number}`,
    html_url: `${ctx.shapes.webUrl}/${full}/pull/${issue.number}`,
    diff_url: `${ctx.shapes.webUrl}/${full}/pull/${issue.number}.diff`,
    head: ref(pull.head, headSha),
    base: ref(pull.base, baseSha),
    draft: pull.draft,
    merged: pull.merged,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    mergeable:
      pull.merged || issue.state === 'closed'
        ? null
        : headSha && baseSha
          ? await canMerge(bare, baseSha, headSha)
          : null,
    mergeable_state: 'clean',
    commits: commits.length,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
    changed_files: files.length,
    review_comments: pull.reviewComments.length,
  };
}
