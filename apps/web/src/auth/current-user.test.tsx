import type { User } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentUserKey, fetchCurrentUser, useLogout } from './current-user';

const ada: User = {
  user_id: 'u1',
  username: 'ada',
  email: null,
  admin: false,
  installations: [],
  repositories: [],
  active_installation_id: null,
};

function stubFetch(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

describe('fetchCurrentUser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('returns the signed-in user', async () => {
    stubFetch(200, ada);
    await expect(fetchCurrentUser()).resolves.toEqual(ada);
  });

  it('treats 401 as signed out, quietly', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubFetch(401, { detail: 'Not authenticated', code: 'unauthorized' });
    await expect(fetchCurrentUser()).resolves.toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('treats any other failure as signed out (platform §4)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubFetch(500, { detail: 'boom', code: 'internal' });
    await expect(fetchCurrentUser()).resolves.toBeNull();
    stubFetch(200, { username: 'ada' });
    await expect(fetchCurrentUser()).resolves.toBeNull();
  });
});

describe('useLogout', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function renderLogout() {
    const client = new QueryClient();
    client.setQueryData(currentUserKey, ada);
    client.setQueryData(['agents'], ['secret']);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/agents']}>{children}</MemoryRouter>
      </QueryClientProvider>
    );
    const hook = renderHook(() => ({ logout: useLogout(), path: useLocation().pathname }), { wrapper });
    return { client, hook };
  }

  it('posts with the CSRF header, forgets the user and their data, and goes home', async () => {
    const fetchMock = vi.fn(async () => new Response('{"success":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const { client, hook } = renderLogout();
    await act(() => hook.result.current.logout());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/logout');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'x-tandem-csrf': '1' });
    expect(client.getQueryData(currentUserKey)).toBeNull();
    expect(client.getQueryData(['agents'])).toBeUndefined();
    expect(hook.result.current.path).toBe('/');
  });

  it('stays put when the server could not end the session', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubFetch(503, { detail: 'down', code: 'unavailable' });
    const { hook } = renderLogout();
    await act(() => hook.result.current.logout());
    expect(hook.result.current.path).toBe('/agents');
  });
});
