import type { HostIssue, HostRepo, HostUser } from '../store/types.js';
import { esc } from './html.js';
import { signInHref } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { repoBase } from './repo-access.js';

const REVIEW_VERBS = {
  APPROVED: 'approved these changes',
  CHANGES_REQUESTED: 'requested changes',
  COMMENTED: 'reviewed',
} as const;

/** Open, Closed or Merged, as the page's status line says it. */
export function threadState(issue: HostIssue): string {
  return issue.pull?.merged ? 'Merged' : issue.state === 'open' ? 'Open' : 'Closed';
}

/** Where a thread's forms post: /{owner}/{repo}/issues/{n} or /pull/{n}. */
export function threadUrl(repo: HostRepo, issue: HostIssue): string {
  return `${repoBase(repo)}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`;
}

function entry(id: string, author: string, verb: string, date: string, body: string): string {
  return `<article class="box" id="${esc(id)}" aria-label="${esc(`${author} ${verb}`)}"><p class="muted"><strong>${esc(author)}</strong> ${esc(verb)} on <time datetime="${esc(date)}">${esc(date.replace('T', ' ').slice(0, 16))}</time></p>${body}</article>`;
}

/**
 * The conversation of an issue or pull request: the description, then comments, reviews and review
 * comments in time order (all Markdown, sanitised), then the comment form and Close/Reopen.
 */
export function conversationView(
  repo: HostRepo,
  issue: HostIssue,
  user: HostUser | undefined,
  canWrite: boolean,
  /** Goes between the timeline and the comment form (the pull request's merge box). */
  beforeForm = '',
): string {
  const timeline: { at: string; html: string }[] = issue.comments.map((c) => ({
    at: c.createdAt,
    html: entry(`issuecomment-${c.id}`, c.author, 'commented', c.createdAt, renderMarkdown(c.body)),
  }));
  for (const review of issue.pull?.reviews ?? []) {
    timeline.push({
      at: review.submittedAt,
      html: entry(
        `pullrequestreview-${review.id}`,
        review.author,
        REVIEW_VERBS[review.state],
        review.submittedAt,
        review.body ? renderMarkdown(review.body) : '',
      ),
    });
  }
  for (const comment of issue.pull?.reviewComments ?? []) {
    const where = `${comment.path}${comment.line === null ? '' : `:${comment.line}`}`;
    timeline.push({
      at: comment.createdAt,
      html: entry(
        `discussion_r${comment.id}`,
        comment.author,
        `commented on ${where}`,
        comment.createdAt,
        renderMarkdown(comment.body),
      ),
    });
  }
  timeline.sort((a, b) => a.at.localeCompare(b.at));

  const description = issue.body.trim()
    ? renderMarkdown(issue.body)
    : '<p class="muted">No description provided.</p>';
  const base = threadUrl(repo, issue);
  const form = user
    ? `<form method="post" action="${esc(`${base}/comments`)}" aria-label="Add a comment">
<label for="comment-body">Comment</label><textarea id="comment-body" name="body" rows="6" required></textarea>
<button type="submit">Comment</button></form>`
    : `<p><a href="${esc(signInHref(base))}">Sign in to comment</a></p>`;
  const noun = issue.pull ? 'pull request' : 'issue';
  const stateButton =
    canWrite && !issue.pull?.merged
      ? issue.state === 'open'
        ? `<form method="post" action="${esc(`${base}/close`)}" class="inline"><button type="submit" class="secondary">Close ${noun}</button></form>`
        : `<form method="post" action="${esc(`${base}/reopen`)}" class="inline"><button type="submit" class="secondary">Reopen ${noun}</button></form>`
      : '';
  return `${entry('issue-description', issue.author, 'opened this', issue.createdAt, description)}
${timeline.map((t) => t.html).join('\n')}
${beforeForm}<h2>Add a comment</h2>${form}${stateButton ? `<p>${stateButton}</p>` : ''}`;
}
