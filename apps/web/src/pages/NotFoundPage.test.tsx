import type { User } from '@tandem/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { currentUserKey } from '../auth/current-user';
import { NotFoundPage } from './NotFoundPage';

const ada: User = {
  user_id: 'u1',
  username: 'ada',
  email: null,
  admin: true,
  installations: [],
  repositories: [],
  active_installation_id: null,
};

function renderAt(path: string, user: User | null) {
  const client = new QueryClient();
  client.setQueryData(currentUserKey, user);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <NotFoundPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('NotFoundPage', () => {
  it('shows the spec texts and offers login to a signed-out visitor', () => {
    renderAt('/nowhere', null);
    expect(screen.getByRole('heading').textContent).toBe('404: Page not found');
    expect(screen.getByText("Looks like there's nothing here :(")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login with Github' }).getAttribute('href')).toBe(
      '/login?returnUrl=%2Fnowhere',
    );
  });

  it('links back to the docs under /docs, without login', () => {
    renderAt('/docs/missing', null);
    expect(screen.getByRole('link', { name: 'Back to docs' }).getAttribute('href')).toBe('/docs');
    expect(screen.queryByText('Login with Github')).toBeNull();
  });

  it('does not offer login to a signed-in user', () => {
    renderAt('/nowhere', ada);
    expect(screen.queryByText('Login with Github')).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to agents' }).getAttribute('href')).toBe('/agents');
  });
});
