import { announcePush, branchSnapshot } from './announce-push.js';
import { mergeBranches } from '../git/repo-files.js';
import { resolveRef } from '../git/repo-reads.js';
import type { Actor } from '../host.js';
import { HttpError, type Context } from '../rest/context.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { announceIssueChange } from './announce-issue-change.js';

export type MergeRefusal = 'merged' | 'closed' | 'conflict' | 'busy' | 'missing-branch';

/** Why a merge did not happen; the REST API answers GitHub's 405, the pages say which. */
export class MergeError extends HttpError {
  constructor(readonly reason: MergeRefusal) {
    super(405, 'Pull Request is not mergeable');
  }
}

// Merges run git for a while; a second click must not merge the same pull request twice.
const merging = new Set<string>();

/**
 * Merges a pull request with a merge commit (GitHub's default button), marks it merged and closed
 * and fires `pull_request` closed with `merged: true`. The caller checks write access.
 */
export async function mergePull(
  ctx: Context,
  repo: HostRepo,
  issue: HostIssue,
  actor: Actor,
  commitTitle?: string,
): Promise<string> {
  const pull = issue.pull;
  if (!pull) throw new HttpError(404, 'Not Found');
  if (pull.merged) throw new MergeError('merged');
  if (issue.state !== 'open') throw new MergeError('closed');
  const key = `${repo.id}#${issue.number}`;
  if (merging.has(key)) throw new MergeError('busy');
  merging.add(key);
  try {
    const title = commitTitle ?? `Merge pull request #${issue.number} from ${repo.owner}/${pull.head}`;
    const bare = ctx.host.repoPath(repo);
    for (const branch of [pull.base, pull.head])
      if (!(await resolveRef(bare, `refs/heads/${branch}`))) throw new MergeError('missing-branch');
    const before = await branchSnapshot(ctx, repo);
    const sha = await mergeBranches(bare, pull.base, pull.head, title);
    if (!sha) throw new MergeError('conflict');
    const now = new Date().toISOString();
    ctx.host.store.update(() => {
      Object.assign(pull, {
        merged: true,
        mergeCommitSha: sha,
        mergedAt: now,
        mergedBy: ctx.host.actorLogin(actor),
      });
      Object.assign(issue, { state: 'closed', closedAt: now, updatedAt: now });
    });
    await announceIssueChange(ctx, repo, issue, actor, 'closed');
    // The base branch moved: GitHub sends its push too (CI and agents key on it).
    await announcePush(ctx, repo, actor, before);
    return sha;
  } finally {
    merging.delete(key);
  }
}
