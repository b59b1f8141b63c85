import type { AgentBranch, AgentDiff, ConversationItem, DiffFile } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi, type Call } from '../../manager/test-support';
import { DiffWindow } from './DiffWindow';
import { lazyMonacoDiff } from './lazy-monaco';
import { clearMemoryMarks } from './marked-files';
import type { MonacoDiffProps } from './monaco-props';

// Real Monaco does not run in a DOM emulation: the lazy module is replaced by plain text.
vi.mock('./MonacoDiff', () => ({
  default: ({ original, modified, sideBySide }: MonacoDiffProps) => (
    <pre data-testid="monaco" data-side-by-side={sideBySide}>
      {original} || {modified}
    </pre>
  ),
}));

const AGENT = '11111111-1111-4111-8111-111111111111';
const SOURCE = '22222222-2222-4222-8222-222222222222';
const BASE = 'b'.repeat(40);
const C1 = '1'.repeat(40);
const C2 = '2'.repeat(40);

const branch = (over: Partial<AgentBranch> = {}): AgentBranch => ({
  repository_name: 'acme/webapp',
  branch: 'tandem-1',
  base_branch: 'main',
  pushed: true,
  pull_request: null,
  draft_title: 'Fix the login',
  draft_body: 'It was broken.',
  commits: [
    { sha: C1, title: 'Add the form' },
    { sha: C2, title: 'Validate the form' },
  ],
  base_sha: BASE,
  compare_url: 'https://github.com/acme/webapp/compare/main...tandem-1',
  ...over,
});

const file = (filename: string, over: Partial<DiffFile> = {}): DiffFile => ({
  filename,
  previous_filename: null,
  status: 'modified',
  additions: 1,
  deletions: 1,
  original: { status: 'ok', contents: `old ${filename}` },
  modified: { status: 'ok', contents: `new ${filename}` },
  ...over,
});

const diff: AgentDiff = {
  files: [file('src/a.ts'), file('logo.png', { modified: { status: 'binary' } })],
  truncated: false,
};

const edit = (path: string, before: string, after: string): ConversationItem => ({
  item_type: 'edit',
  action_uuid: `e-${path}`,
  pid: null,
  timestamp: '2026-01-01T00:00:10Z',
  action_type: null,
  user_id: null,
  old_files: { [path]: before },
  new_files: { [path]: after },
});

function api(branchAnswer: [number, unknown], diffAnswer: [number, unknown] = [200, diff]) {
  return stubApi((call: Call) => {
    if (call.url.startsWith('/api/agent/branch')) return branchAnswer;
    if (call.url.startsWith('/api/agent/diff')) return diffAnswer;
    return [404, { detail: 'Not found' }];
  });
}

function renderWindow(sourceId: string | null, items: ConversationItem[] = []) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DiffWindow agentId={AGENT} sourceId={sourceId} items={items} />
    </QueryClientProvider>,
  );
}

describe('DiffWindow', () => {
  beforeEach(() => {
    // Mount every editor at once (no viewport to wait for).
    vi.stubGlobal('IntersectionObserver', undefined);
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearMemoryMarks();
  });

  it('says so when the branch subscription is gone', async () => {
    api([404, { detail: 'Branch subscription not found' }]);
    renderWindow(SOURCE);
    expect(await screen.findByText('Branch subscription not found')).toBeTruthy();
  });

  it('shows the draft, the whole branch range and each file', async () => {
    const calls = api([200, branch()]);
    renderWindow(SOURCE);
    expect(await screen.findByRole('heading', { name: 'Fix the login' })).toBeTruthy();
    expect(screen.getByText('It was broken.')).toBeTruthy();
    const inRange = screen.getByRole('list', { name: 'Commits in range' });
    expect(
      within(inRange)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['2222222Validate the form', '1111111Add the form']);
    expect(screen.getByRole('button', { name: /^Commit range: / }).textContent).toBe('All commits (2)');
    expect(await screen.findByRole('heading', { name: 'src/a.ts' })).toBeTruthy();
    expect((await screen.findByTestId('monaco')).textContent).toBe('old src/a.ts || new src/a.ts');
    expect(screen.getByText('Binary file not shown')).toBeTruthy();
    const diffCall = calls.find((c) => c.url.startsWith('/api/agent/diff'));
    expect(new URL(diffCall?.url ?? '', 'http://x').searchParams.get('from')).toBe(BASE);
    expect(new URL(diffCall?.url ?? '', 'http://x').searchParams.get('to')).toBe(C2);
  });

  it('opens the compare page from Create PR', async () => {
    api([200, branch()]);
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderWindow(SOURCE);
    fireEvent.click(await screen.findByRole('button', { name: 'Create PR' }));
    const [url, target, features] = open.mock.calls[0] as [string, string, string];
    expect(url).toBe(
      'https://github.com/acme/webapp/compare/main...tandem-1?expand=1&title=Fix+the+login&body=It+was+broken.',
    );
    expect([target, features]).toEqual(['_blank', 'noopener']);
  });

  it('shows the pull request instead of Create PR', async () => {
    api([
      200,
      branch({ pull_request: { number: 12, title: 'Login fix', body: 'Body\ntext', state: 'open' } }),
    ]);
    renderWindow(SOURCE);
    expect(await screen.findByRole('heading', { name: '#12 Login fix' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create PR' })).toBeNull();
  });

  it('collapses a file marked viewed, and collapses or expands all', async () => {
    api([200, branch()]);
    renderWindow(SOURCE);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Viewed src/a.ts' }));
    await waitFor(() => expect(screen.queryByTestId('monaco')).toBeNull());
    expect(screen.getByRole('checkbox', { name: 'Viewed src/a.ts' })).toHaveProperty('checked', true);
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryByText('Binary file not shown')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(screen.getByTestId('monaco')).toBeTruthy();
    expect(screen.getByText('Binary file not shown')).toBeTruthy();
  });

  it('keeps the side-by-side choice', async () => {
    api([200, branch()]);
    renderWindow(SOURCE);
    expect((await screen.findByTestId('monaco')).dataset.sideBySide).toBe('true');
    fireEvent.click(screen.getByRole('switch', { name: 'Side by side' }));
    expect(screen.getByTestId('monaco').dataset.sideBySide).toBe('false');
    expect(localStorage.getItem('diffEditor:sideBySide')).toBe('0');
  });

  it('offers the live changes as the top of the range', async () => {
    const calls = api([200, branch()]);
    renderWindow(SOURCE, [edit('src/a.ts', 'new src/a.ts', 'live src/a.ts')]);
    fireEvent.click(await screen.findByRole('button', { name: /^Commit range: / }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose commit range' });
    expect(within(dialog).getByText('Validate the form')).toBeTruthy();
    expect(within(dialog).getByText('Uncommitted changes')).toBeTruthy();
    const to = within(dialog).getByRole('slider', { name: 'To' });
    fireEvent.change(to, { target: { value: '3' } });
    // The popover hides the window from the accessibility tree until it closes.
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Commit range: / }).textContent).toBe('bbbbbbb…uncommitted'),
    );
    expect((await screen.findAllByTestId('monaco'))[0]?.textContent).toBe('old src/a.ts || live src/a.ts');
    // The committed part is still base..last commit.
    expect(
      calls.filter((c) => c.url.startsWith('/api/agent/diff')).every((c) => c.url.includes(`to=${C2}`)),
    ).toBe(true);
  });

  it('shows only the live changes without a branch subscription', async () => {
    const calls = api([500, {}]);
    renderWindow(null, [edit('notes.md', '', 'hello')]);
    expect(await screen.findByRole('heading', { name: 'notes.md' })).toBeTruthy();
    expect(screen.getByText('added')).toBeTruthy();
    expect((await screen.findByTestId('monaco')).textContent).toBe(' || hello');
    expect(calls).toEqual([]);
  });
});

describe('Viewed marks', () => {
  beforeEach(() => vi.stubGlobal('IntersectionObserver', undefined));
  afterEach(() => {
    vi.unstubAllGlobals();
    clearMemoryMarks();
  });

  it('un-marks and expands a viewed file whose content changed, and keeps marks across remounts', async () => {
    const first = [edit('notes.md', '', 'hello')];
    const client = new QueryClient();
    const ui = (items: ConversationItem[]) => (
      <QueryClientProvider client={client}>
        <DiffWindow agentId={AGENT} sourceId={null} items={items} />
      </QueryClientProvider>
    );
    const view = render(ui(first));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Viewed notes.md' }));
    await waitFor(() => expect(screen.queryByTestId('monaco')).toBeNull());

    view.unmount();
    const again = render(ui(first));
    const box = await screen.findByRole('checkbox', { name: 'Viewed notes.md' });
    expect(box).toHaveProperty('checked', true);
    expect(screen.queryByTestId('monaco')).toBeNull();

    again.rerender(ui([...first, { ...edit('notes.md', 'hello', 'hello again'), action_uuid: 'e2' }]));
    expect((await screen.findByTestId('monaco')).textContent).toBe(' || hello again');
    expect(screen.getByRole('checkbox', { name: 'Viewed notes.md' })).toHaveProperty('checked', false);
  });
});

describe('lazyMonacoDiff', () => {
  it('shares one lazy component per attempt and makes a fresh one for a retry', () => {
    expect(lazyMonacoDiff(0)).toBe(lazyMonacoDiff(0));
    expect(lazyMonacoDiff(1)).not.toBe(lazyMonacoDiff(0));
  });
});
