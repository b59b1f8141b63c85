import type { Actor } from '../host.js';
import { applyIssueEdit } from '../rest/issue-model.js';
import type { Context } from '../rest/context.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { announceIssueChange } from './announce-issue-change.js';

/**
 * Closes or reopens an issue or pull request and fires `issues` / `pull_request` closed or
 * reopened; nothing happens when it is already in that state. A merged pull request stays closed
 * (HttpError 422). The caller checks write access.
 */
export async function changeIssueState(
  ctx: Context,
  repo: HostRepo,
  issue: HostIssue,
  actor: Actor,
  state: 'open' | 'closed',
): Promise<string | null> {
  // applyIssueEdit throws before changing anything, so a refusal leaves the store as it was.
  const changes = ctx.host.store.update(() => applyIssueEdit(issue, { state }));
  for (const change of changes) await announceIssueChange(ctx, repo, issue, actor, change);
  return changes[0]?.action ?? null;
}
