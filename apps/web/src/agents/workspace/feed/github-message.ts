import type { ConversationItem } from '@tandem/shared';

/** What a message that came from the code host (a comment, a review, an issue or PR body) says about itself. */
export interface GitHubOrigin {
  /** "commented on #4", "opened issue #4", "reviewed #7"… */
  verb: string;
  /** A link to the comment on the code host; only http(s) links are kept (the payload is hostile input). */
  url: string | null;
  avatarUrl: string | null;
}

const GITHUB_ACTION_TYPES = new Set([
  'issue_comment',
  'pull_request',
  'pull_request_review',
  'send_comments',
]);

/** An http(s) URL, or null: a `javascript:` or `data:` link from a payload never reaches an href or src. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The code-host origin of a message item, or null for a message written in Tandem (or by the agent). */
export function githubOrigin(item: ConversationItem): GitHubOrigin | null {
  if (!item.action_type || !GITHUB_ACTION_TYPES.has(item.action_type)) return null;
  const url = safeUrl(item.html_url);
  const avatarUrl = safeUrl(item.avatar_url);
  // `send_comments` is also what the workspace sends with review comments from its diff window.
  if (item.action_type === 'send_comments' && !url && !avatarUrl) return null;
  const number = typeof item.number === 'number' ? ` #${item.number}` : '';
  const opened = item.action === 'opened';
  const verb =
    item.action_type === 'pull_request'
      ? `${opened ? 'opened pull request' : 'updated pull request'}${number}`
      : item.action_type === 'pull_request_review'
        ? `reviewed${number}`
        : item.action_type === 'send_comments'
          ? `commented on the diff of${number}`
          : opened
            ? `opened issue${number}`
            : `commented on${number}`;
  return { verb, url, avatarUrl };
}
