import type { User } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserKey } from '../../../auth/current-user';
import { FileViewer } from './FileViewer';

const AGENT_ID = '11111111-1111-4111-8111-111111111111';
const SHA = '0123456789abcdef0123456789abcdef01234567';

const ada: User = {
  user_id: 'u1',
  username: 'ada',
  email: null,
  admin: false,
  installations: [],
  repositories: [],
  active_installation_id: null,
};

/** Answers every fetch with `body` and `status`, recording the URLs asked for. */
function stubFetch(status: number, body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return urls;
}

function renderViewer(options: { user?: User | null; gitRef?: string | null; path?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(currentUserKey, options.user === undefined ? ada : options.user);
  return render(
    <QueryClientProvider client={client}>
      <FileViewer
        agentId={AGENT_ID}
        repositoryName="acme/webapp"
        path={options.path ?? 'src/login.ts'}
        gitRef={options.gitRef === undefined ? SHA : options.gitRef}
      />
    </QueryClientProvider>,
  );
}

describe('FileViewer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the text with line numbers under the path and short sha', async () => {
    const urls = stubFetch(200, { status: 'ok', contents: 'const a = 1;\n  return a;\n' });
    renderViewer();
    const contents = await screen.findByTestId('file-contents');
    expect(contents.textContent).toBe('const a = 1;\n  return a;\n');
    expect(screen.getByRole('region', { name: 'Contents of src/login.ts' }).textContent).toContain('1\n2');
    expect(screen.getByRole('heading', { name: 'src/login.ts' })).toBeTruthy();
    expect(screen.getByText('0123456')).toBeTruthy();
    expect(urls).toEqual([
      `/api/agent/file?trajectory_id=${AGENT_ID}&repository_name=acme%2Fwebapp&path=src%2Flogin.ts&ref=${SHA}`,
    ]);
  });

  it('leaves out a missing ref', async () => {
    const urls = stubFetch(200, { status: 'ok', contents: 'x' });
    renderViewer({ gitRef: null });
    await screen.findByTestId('file-contents');
    expect(urls[0]).not.toContain('ref=');
  });

  it('shows a missing file as empty', async () => {
    stubFetch(200, { status: 'not_found', contents: '' });
    renderViewer({ gitRef: 'main' });
    expect(await screen.findByText('src/login.ts is empty or does not exist at main.')).toBeTruthy();
  });

  it.each([
    [{ status: 'binary' }, 'Binary file not shown'],
    [{ status: 'too_large' }, 'Large file hidden'],
    [{ status: 'error', message: 'decode failed' }, 'Error displaying file'],
  ])('shows the %o read state', async (body, message) => {
    stubFetch(200, body);
    renderViewer();
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.queryByTestId('file-contents')).toBeNull();
  });

  it('explains a 403', async () => {
    stubFetch(403, { detail: 'Forbidden', code: 'forbidden' });
    renderViewer();
    expect(
      await screen.findByText(
        'You do not have permission to view this file. Ask the owner of the github repository to add you.',
      ),
    ).toBeTruthy();
  });

  it('asks the signed-in to wait on a 429', async () => {
    stubFetch(429, { detail: 'Too many requests', code: 'rate_limited' });
    renderViewer();
    expect(await screen.findByText('Request rate limit reached. Please try again later.')).toBeTruthy();
  });

  it('asks the anonymous to log in on a 429', async () => {
    stubFetch(429, { detail: 'Too many requests', code: 'rate_limited' });
    renderViewer({ user: null });
    expect(
      await screen.findByText('Request rate limit reached. Please login to increase your limits.'),
    ).toBeTruthy();
  });

  it('does not retry a 4xx', async () => {
    const urls = stubFetch(401, { detail: 'Not authenticated', code: 'unauthorized' });
    renderViewer();
    expect(await screen.findByText('You must be logged in to view this file.')).toBeTruthy();
    expect(urls).toHaveLength(1);
  });
});
