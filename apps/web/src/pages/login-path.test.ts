import { describe, expect, it } from 'vitest';
import { githubSignInUrl, loginPath } from './login-path';

describe('login paths', () => {
  it('remembers a same-origin return path', () => {
    expect(loginPath('/gh/acme/webapp/agents?page=2')).toBe(
      '/login?returnUrl=%2Fgh%2Facme%2Fwebapp%2Fagents%3Fpage%3D2',
    );
    expect(loginPath('/')).toBe('/login');
    expect(loginPath('//evil.com')).toBe('/login');
    expect(loginPath('/login?returnUrl=%2Fsettings&error=denied')).toBe('/login?returnUrl=%2Fsettings');
    expect(loginPath('/login?returnUrl=%2F%2Fevil.com')).toBe('/login');
  });

  it('starts the OAuth flow with a sanitised return_uri defaulting to /agents', () => {
    expect(githubSignInUrl('/settings')).toBe('/auth/github?return_uri=%2Fsettings');
    expect(githubSignInUrl(null)).toBe('/auth/github?return_uri=%2Fagents');
    expect(githubSignInUrl('https://evil.com')).toBe('/auth/github?return_uri=%2Fagents');
  });
});
