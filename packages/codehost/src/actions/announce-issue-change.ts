import type { Actor } from '../host.js';
import { eventBase, type IssueChange } from '../rest/issue-model.js';
import type { Context } from '../rest/context.js';
import { pullJson } from '../rest/pull-json.js';
import type { HostIssue, HostRepo } from '../store/types.js';

/**
 * The webhook for a change to an issue or pull request (opened, edited, closed, reopened), as
 * GitHub sends it: `pull_request` with the full pull request (its `merged` flag included) for
 * pull requests, `issues` with the issue otherwise. The REST API and the pages share it.
 */
export async function announceIssueChange(
  ctx: Context,
  repo: HostRepo,
  issue: HostIssue,
  actor: Actor,
  change: string | IssueChange,
): Promise<void> {
  const { action, changes } = typeof change === 'string' ? { action: change, changes: undefined } : change;
  if (issue.pull) {
    ctx.webhooks.send('pull_request', {
      action,
      ...(changes ? { changes } : {}),
      number: issue.number,
      pull_request: await pullJson(ctx, repo, issue),
      ...eventBase(ctx, repo, actor),
    });
    return;
  }
  ctx.webhooks.send('issues', {
    action,
    ...(changes ? { changes } : {}),
    issue: ctx.shapes.issue(repo, issue),
    ...eventBase(ctx, repo, actor),
  });
}
