import type { Actor } from '../host.js';
import { HttpError, type Context } from '../rest/context.js';
import { eventBase, nextNumber } from '../rest/issue-model.js';
import type { HostIssue, HostRepo } from '../store/types.js';
import { MAX_COMMENT_LENGTH } from './comment-on-issue.js';

/** GitHub's limit on an issue title. */
export const MAX_TITLE_LENGTH = 256;

/**
 * Opens an issue and fires `issues` opened, for the REST API and the New issue page alike. A
 * missing or oversized title or body is a 422 and stores nothing. The caller checks access.
 */
export function openIssue(
  ctx: Context,
  repo: HostRepo,
  actor: Actor,
  input: { title?: unknown; body?: unknown },
): HostIssue {
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  const body = typeof input.body === 'string' ? input.body : '';
  if (!title) throw new HttpError(422, 'Validation Failed: title is missing');
  if (title.length > MAX_TITLE_LENGTH)
    throw new HttpError(
      422,
      `Validation Failed: title is too long (maximum is ${MAX_TITLE_LENGTH} characters)`,
    );
  if (body.length > MAX_COMMENT_LENGTH)
    throw new HttpError(
      422,
      `Validation Failed: body is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`,
    );
  const now = new Date().toISOString();
  const issue: HostIssue = {
    number: nextNumber(ctx, repo),
    repo: `${repo.owner}/${repo.name}`,
    title,
    body,
    author: ctx.host.actorLogin(actor),
    state: 'open',
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    comments: [],
  };
  ctx.host.store.update((s) => s.issues.push(issue));
  ctx.webhooks.send('issues', {
    action: 'opened',
    issue: ctx.shapes.issue(repo, issue),
    ...eventBase(ctx, repo, actor),
  });
  return issue;
}
