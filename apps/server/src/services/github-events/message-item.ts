import type { ThreadEvent } from './thread-event.js';

/** GitHub's own limit on a comment; longer text is cut here before it is stored or sent to a model. */
const MAX_MESSAGE = 65_536;
const MAX_REVIEW_COMMENTS = 100;

/** An inline review comment as the feed and the model get it (workspace §3 Review comment). */
export interface ReviewCommentData {
  id: number;
  path: string;
  body: string;
  line: number | null;
  start_line: number | null;
  side: 'LEFT' | 'RIGHT';
  commit_id: string | null;
  html_url: string | null;
}

/** The conversation message a code-host comment becomes (the feed's contract, see FeedItem). */
export function messageItem(event: ThreadEvent, repositoryName: string, reviewComments: ReviewCommentData[]) {
  const actionType =
    event.kind === 'pull_request_review' && !event.body.trim() && reviewComments.length
      ? 'send_comments'
      : event.kind;
  return {
    actionType,
    data: {
      message: event.body.slice(0, MAX_MESSAGE),
      username: event.author.login,
      avatar_url: event.author.avatarUrl,
      github_user_id: event.author.id,
      action: event.action,
      number: event.number,
      repository_name: repositoryName,
      html_url: event.htmlUrl,
      image_count: 0,
      review_comments: reviewComments.slice(0, MAX_REVIEW_COMMENTS).map((c) => ({
        ...c,
        body: c.body.slice(0, MAX_MESSAGE),
      })),
    },
  };
}
