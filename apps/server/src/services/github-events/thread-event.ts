import type { ThreadWebhookPayload } from '@tandem/shared';

/** A person's words on an issue or pull request, whatever event brought them. */
export interface ThreadEvent {
  installationId: number;
  repoGithubId: number;
  number: number;
  isPull: boolean;
  /** The pull request's head branch, when known. */
  headRef: string | undefined;
  /** The message item's action_type (workspace §3 Message). */
  kind: 'issue_comment' | 'pull_request' | 'pull_request_review';
  action: 'created' | 'opened' | 'submitted';
  /** What the person wrote (an opened issue: its title and body). */
  body: string;
  author: { id: number; login: string; type: string; avatarUrl: string | null };
  htmlUrl: string | null;
  /** What gets the 'eyes' reaction; a review has no reactions API, so none. */
  reactTo:
    | { kind: 'comment'; id: number }
    | { kind: 'review_comment'; id: number }
    | { kind: 'issue'; number: number }
    | null;
  reviewId: number | undefined;
  /** issues.opened: always-ask may start an agent without a tag. */
  newIssue: boolean;
}

type Author = NonNullable<ThreadWebhookPayload['sender']>;
const authorOf = (a: Author) => ({ id: a.id, login: a.login, type: a.type, avatarUrl: a.avatar_url ?? null });

/**
 * The thread event of a delivery (checked by the shared webhook schema), or null when the event
 * carries no words to act on (edits, deletions, closings, events without installation).
 */
export function threadEvent(event: string, p: ThreadWebhookPayload): ThreadEvent | null {
  const installationId = p.installation?.id;
  const repoGithubId = p.repository?.id;
  if (!installationId || !repoGithubId) return null;
  const base = { installationId, repoGithubId, reviewId: undefined, newIssue: false };
  if (event === 'issue_comment' && p.action === 'created' && p.issue && p.comment?.user) {
    return {
      ...base,
      number: p.issue.number,
      isPull: p.issue.pull_request !== undefined,
      headRef: undefined,
      kind: 'issue_comment',
      action: 'created',
      body: p.comment.body ?? '',
      author: authorOf(p.comment.user),
      htmlUrl: p.comment.html_url ?? null,
      reactTo: { kind: 'comment', id: p.comment.id },
    };
  }
  if (event === 'issues' && p.action === 'opened' && p.issue?.user) {
    return {
      ...base,
      newIssue: true,
      number: p.issue.number,
      isPull: false,
      headRef: undefined,
      kind: 'issue_comment',
      action: 'opened',
      body: [p.issue.title ?? '', p.issue.body ?? ''].filter(Boolean).join('\n\n'),
      author: authorOf(p.issue.user),
      htmlUrl: p.issue.html_url ?? null,
      reactTo: { kind: 'issue', number: p.issue.number },
    };
  }
  if (event === 'pull_request' && p.action === 'opened' && p.pull_request?.user) {
    return {
      ...base,
      number: p.pull_request.number,
      isPull: true,
      headRef: p.pull_request.head?.ref,
      kind: 'pull_request',
      action: 'opened',
      body: [p.pull_request.title ?? '', p.pull_request.body ?? ''].filter(Boolean).join('\n\n'),
      author: authorOf(p.pull_request.user),
      htmlUrl: p.pull_request.html_url ?? null,
      reactTo: { kind: 'issue', number: p.pull_request.number },
    };
  }
  if (event === 'pull_request_review' && p.action === 'submitted' && p.pull_request && p.review?.user) {
    return {
      ...base,
      reviewId: p.review.id,
      number: p.pull_request.number,
      isPull: true,
      headRef: p.pull_request.head?.ref,
      kind: 'pull_request_review',
      action: 'submitted',
      body: p.review.body ?? '',
      author: authorOf(p.review.user),
      htmlUrl: p.review.html_url ?? null,
      reactTo: null,
    };
  }
  return null;
}
