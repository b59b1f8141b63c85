import type { ConversationItem } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { githubOrigin, safeUrl } from './github-message';

const message = (fields: Record<string, unknown>): ConversationItem => ({
  item_type: 'message',
  action_uuid: 'u-1',
  pid: null,
  timestamp: '2026-11-24T10:00:00.000Z',
  action_type: null,
  user_id: null,
  ...fields,
});

describe('github messages', () => {
  it('describes each kind of code-host message', () => {
    const base = { html_url: 'https://github.com/acme/webapp/issues/4#issuecomment-1', number: 4 };
    expect(githubOrigin(message({ ...base, action_type: 'issue_comment', action: 'created' }))?.verb).toBe(
      'commented on #4',
    );
    expect(githubOrigin(message({ ...base, action_type: 'issue_comment', action: 'opened' }))?.verb).toBe(
      'opened issue #4',
    );
    expect(githubOrigin(message({ ...base, action_type: 'pull_request', action: 'opened' }))?.verb).toBe(
      'opened pull request #4',
    );
    expect(githubOrigin(message({ ...base, action_type: 'pull_request_review' }))?.verb).toBe('reviewed #4');
    expect(githubOrigin(message({ ...base, action_type: 'send_comments' }))?.verb).toBe(
      'commented on the diff of #4',
    );
  });

  it('leaves messages written in Tandem alone', () => {
    expect(githubOrigin(message({ action_type: 'website_request' }))).toBeNull();
    expect(githubOrigin(message({ action_type: null }))).toBeNull();
    // Review comments sent from the workspace's diff window carry no code-host link.
    expect(githubOrigin(message({ action_type: 'send_comments' }))).toBeNull();
  });

  it('keeps only http(s) links from a payload', () => {
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('data:text/html,<b>x</b>')).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
    expect(safeUrl(42)).toBeNull();
    expect(safeUrl('http://localhost:8081/acme/webapp/issues/1')).toBe(
      'http://localhost:8081/acme/webapp/issues/1',
    );
    const origin = githubOrigin(
      message({ action_type: 'issue_comment', html_url: 'javascript:alert(1)', avatar_url: 'vbscript:x' }),
    );
    expect(origin).toMatchObject({ url: null, avatarUrl: null });
  });
});
