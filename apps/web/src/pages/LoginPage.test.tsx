import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LoginPage } from './LoginPage';

function signInHref(path: string): string | null {
  render(
    <MemoryRouter initialEntries={[path]}>
      <LoginPage />
    </MemoryRouter>,
  );
  return screen.getByRole('link', { name: 'Login with Github' }).getAttribute('href');
}

describe('LoginPage', () => {
  it.each([
    ['/login', '/auth/github?return_uri=%2Fagents'],
    ['/login?returnUrl=%2Fgh%2Facme%3Fpage%3D2', '/auth/github?return_uri=%2Fgh%2Facme%3Fpage%3D2'],
    ['/login?returnUrl=%2F%2Fevil.com', '/auth/github?return_uri=%2Fagents'],
    ['/login?returnUrl=https%3A%2F%2Fevil.com', '/auth/github?return_uri=%2Fagents'],
    ['/login?returnUrl=%2F%5Cevil.com', '/auth/github?return_uri=%2Fagents'],
    ['/login?returnUrl=agents', '/auth/github?return_uri=%2Fagents'],
  ])('%s signs in with %s', (path, expected) => {
    expect(signInHref(path)).toBe(expected);
  });

  it('passes the tracked lead id along, so sign-in links the visit to the user', () => {
    localStorage.setItem('lead_id', 'lead 9');
    try {
      expect(signInHref('/login')).toBe('/auth/github?return_uri=%2Fagents&lead_id=lead%209');
    } finally {
      localStorage.removeItem('lead_id');
    }
  });

  it('explains why an earlier sign-in came back without a session', () => {
    signInHref('/login?error=denied');
    expect(screen.getByRole('alert').textContent).toBe('Sign-in was cancelled on GitHub.');
  });
});
