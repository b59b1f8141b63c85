import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bob, renderSignedIn } from '../agents/manager/test-support';
import { RequireUser } from './RequireUser';

describe('RequireUser', () => {
  it('shows a signed-in user the page', () => {
    renderSignedIn(<RequireUser>members page</RequireUser>, { path: '/agents' });
    expect(screen.getByText('members page')).toBeTruthy();
  });

  it('sends everyone but product admins from the admin area back to /', async () => {
    renderSignedIn(<RequireUser admin>admin page</RequireUser>, { path: '/admin/dashboard' });
    expect(screen.queryByText('admin page')).toBeNull();
    expect((await screen.findByTestId('location')).textContent).toBe('/');
  });

  it('shows a product admin the admin area', () => {
    renderSignedIn(<RequireUser admin>admin page</RequireUser>, {
      path: '/admin/dashboard',
      user: { ...bob, admin: true },
    });
    expect(screen.getByText('admin page')).toBeTruthy();
  });
});
