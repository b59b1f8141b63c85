import type { ConversationItem } from '@tandem/shared';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { FeedEntryView } from './FeedItem';
import { FeedRepoContext, OpenTabContext } from './open-tab-context';
import type { WorkspaceTab } from './tabs';

const base = { pid: null, user_id: null, timestamp: new Date().toISOString(), action_type: null };
const item = (fields: Partial<ConversationItem> & { item_type: string }): ConversationItem => ({
  ...base,
  action_uuid: `u-${Math.random()}`,
  ...fields,
});

function show(entry: ConversationItem, openTab: (tab: WorkspaceTab) => void = () => undefined) {
  return render(
    <MemoryRouter>
      <OpenTabContext.Provider value={openTab}>
        <FeedRepoContext.Provider value={{ repoName: 'acme/webapp', branch: 'tandem-1' }}>
          <FeedEntryView entry={{ kind: 'item', key: entry.action_uuid, item: entry }} viewerId="me" />
        </FeedRepoContext.Provider>
      </OpenTabContext.Provider>
    </MemoryRouter>,
  );
}

describe('feed items', () => {
  it('shows a commit with its format script running, its workflows and its log', () => {
    const open = vi.fn();
    show(
      item({
        item_type: 'commit',
        commit_sha: 'abcdef1234567',
        branch: 'tandem-1',
        commit_message: 'Add subtract',
        script_status: 'pending',
        script_log: '11111111-1111-4111-8111-111111111111',
        workflows: [{ workflow_name: 'CI', workflow_status: 'in_progress' }],
      }),
      open,
    );
    expect(screen.getByText('Committed abcdef1 to tandem-1: Add subtract')).toBeTruthy();
    expect(screen.getByText('Running format script...')).toBeTruthy();
    expect(screen.getByText('CI: in progress')).toBeTruthy();
    screen.getByRole('button', { name: 'View log' }).click();
    expect(open).toHaveBeenCalledWith({
      kind: 'log',
      logId: '11111111-1111-4111-8111-111111111111',
      path: '.tandem/format.sh',
    });
  });

  it('shows what an admin did from the task monitor, in our words only', () => {
    const { unmount } = show(
      item({ item_type: 'action', action_type: 'AdminTaskEvent', admin_action: 'fail', summary: 'x' }),
    );
    expect(screen.getByRole('alert').textContent).toBe('An admin marked this agent as failed.');
    unmount();
    // An unknown action (stored by a newer server, or forged) shows nothing rather than its text.
    show(item({ item_type: 'action', action_type: 'AdminTaskEvent', admin_action: '<b>hi</b>' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('links the over-budget notice to the repository settings', () => {
    show(item({ item_type: 'action', action_type: 'OverBudgetEvent', credit_limit: 1500 }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(
      'Exceeded budget of 1500¢ since last message. Change budget here. Message to continue.',
    );
    expect(within(alert).getByRole('link', { name: 'Change budget here' }).getAttribute('href')).toBe(
      '/gh/acme/webapp/settings#behavior',
    );
  });

  it('opens a viewed file at the branch, and shows review comments of a message', () => {
    const open = vi.fn();
    show(item({ item_type: 'view', files: { 'src/math.js': ['x', [1, 2]] } }), open);
    screen.getByRole('button', { name: 'src/math.js' }).click();
    expect(open).toHaveBeenCalledWith({
      kind: 'file',
      repositoryName: 'acme/webapp',
      path: 'src/math.js',
      ref: 'tandem-1',
    });
    show(
      item({
        item_type: 'message',
        message: '',
        username: 'bob',
        review_comments: [{ path: 'src/math.js', line: 2, body: 'Call it minus?' }],
      }),
    );
    const comments = screen.getByRole('list', { name: 'Review comments' });
    expect(comments.textContent).toBe('src/math.js:2 Call it minus?');
  });

  it('marks a shutdown with an exception as an error', () => {
    show(item({ item_type: 'action', action_type: 'ShutdownEvent', exception: 'Out of memory' }));
    expect(screen.getByRole('alert').textContent).toContain('The sandbox stopped: Out of memory');
  });
  it('shows a code-host comment with its author, a link back and its review comments in place', () => {
    show(
      item({
        item_type: 'message',
        action_type: 'pull_request_review',
        message: '@tandem please fix these',
        username: 'octocat',
        avatar_url: 'https://avatars.example.com/u/1',
        number: 7,
        html_url: 'https://github.com/acme/webapp/pull/7#pullrequestreview-9',
        review_comments: [
          {
            id: 11,
            path: 'src/math.js',
            line: 4,
            start_line: 2,
            side: 'RIGHT',
            body: 'Handle negatives',
            html_url: 'https://github.com/acme/webapp/pull/7#discussion_r11',
          },
          {
            id: 12,
            path: 'src/old.js',
            line: 3,
            side: 'LEFT',
            body: 'Why removed?',
            html_url: 'javascript:x',
          },
        ],
      }),
    );
    const message = screen.getByTestId('feed-message');
    expect(within(message).getByText(/octocat reviewed #7/)).toBeTruthy();
    expect(within(message).getByRole('link', { name: 'View on the code host' }).getAttribute('href')).toBe(
      'https://github.com/acme/webapp/pull/7#pullrequestreview-9',
    );
    expect(message.querySelector('img')?.getAttribute('src')).toBe('https://avatars.example.com/u/1');
    const comments = within(message).getByRole('list', { name: 'Review comments' });
    expect(within(comments).getByRole('link', { name: 'src/math.js:2-4' }).getAttribute('href')).toBe(
      'https://github.com/acme/webapp/pull/7#discussion_r11',
    );
    // A hostile link is shown as text, never as an href.
    expect(within(comments).getByText('src/old.js:3 (old)').closest('a')).toBeNull();
    expect(within(comments).getByText('Handle negatives')).toBeTruthy();
  });

  it("shows a sub-agent's report with its status, summary, pull requests and a link to it", () => {
    show(
      item({
        item_type: 'message',
        action_type: 'sub_agent_report',
        user_id: 'me',
        message: 'Sub-agent #2 finished.',
        username: 'sub-agent #2',
        sub_agent_id: '22222222-2222-4222-8222-222222222222',
        sub_agent_title: 'Write the docs',
        sub_agent_status: 'completed',
        repository_name: 'acme/webapp',
        task_summary: 'Added **docs**.',
        pull_requests: ['https://github.com/acme/webapp/pull/7', 'javascript:alert(1)'],
      }),
    );
    const report = screen.getByTestId('sub-agent-report');
    expect(within(report).getByRole('link', { name: 'Write the docs' }).getAttribute('href')).toBe(
      '/gh/acme/webapp/agent/22222222-2222-4222-8222-222222222222',
    );
    expect(within(report).getByText('Finished')).toBeTruthy();
    expect(within(report).getByText('docs').tagName).toBe('STRONG');
    const pulls = within(report).getByRole('list', { name: 'Pull requests' });
    // Only the http(s) link is kept.
    expect(
      within(pulls)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['https://github.com/acme/webapp/pull/7']);
    expect(screen.queryByTestId('feed-message')).toBeNull();
  });
});
