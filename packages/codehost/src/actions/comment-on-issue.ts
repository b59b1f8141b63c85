import type { Actor } from '../host.js';
import { HttpError, type Context } from '../rest/context.js';
import { eventBase } from '../rest/issue-model.js';
import type { HostComment, HostIssue, HostRepo } from '../store/types.js';

/** GitHub's limit on a comment body. */
export const MAX_COMMENT_LENGTH = 65_536;

/**
 * Adds a comment to an issue or pull request conversation and fires `issue_comment` created.
 * An empty or oversized body is a 422 and stores nothing. The caller checks access.
 */
export function commentOnIssue(
  ctx: Context,
  repo: HostRepo,
  issue: HostIssue,
  actor: Actor,
  body: unknown,
): HostComment {
  const text = typeof body === 'string' ? body : '';
  if (!text.trim()) throw new HttpError(422, 'Validation Failed: body is missing');
  if (text.length > MAX_COMMENT_LENGTH)
    throw new HttpError(
      422,
      `Validation Failed: body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`,
    );
  const comment: HostComment = {
    id: ctx.host.store.nextId(),
    author: ctx.host.actorLogin(actor),
    body: text,
    createdAt: new Date().toISOString(),
  };
  ctx.host.store.update(() => {
    issue.comments.push(comment);
    issue.updatedAt = comment.createdAt;
  });
  ctx.webhooks.send('issue_comment', {
    action: 'created',
    issue: ctx.shapes.issue(repo, issue),
    comment: ctx.shapes.comment(repo, issue, comment),
    ...eventBase(ctx, repo, actor),
  });
  return comment;
}
