import { SESSION_COOKIE } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../testing/test-app.js';
import { DEFAULT_RATE_LIMITS } from './rate-limits.js';
import { loadConfig } from './schema.js';
import { forwardedFor, forwardedHost, parseTrustedProxies, trustFunction } from './trusted-proxies.js';

describe('TANDEM_TRUSTED_PROXIES', () => {
  it('trusts nobody by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual({ kind: 'none' });
    const trust = trustFunction(loadConfig({}).trustedProxies);
    expect(trust('127.0.0.1', 0)).toBe(false);
  });

  it('goes with rate limits on unless TANDEM_RATE_LIMITS=off', () => {
    expect(loadConfig({}).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(loadConfig({ TANDEM_RATE_LIMITS: 'off' }).rateLimits).toBe(false);
    expect(() => loadConfig({ TANDEM_RATE_LIMITS: 'maybe' })).toThrow(/TANDEM_RATE_LIMITS/);
  });

  it('parses hop counts, IPs, CIDRs and named ranges, and refuses anything else', () => {
    expect(parseTrustedProxies('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(parseTrustedProxies(' 10.0.0.0/8, 192.168.1.10 ,::1 ')).toEqual({
      kind: 'addresses',
      ranges: ['10.0.0.0/8', '192.168.1.10', '::1'],
    });
    expect(parseTrustedProxies('loopback')).toEqual({
      kind: 'addresses',
      ranges: ['127.0.0.1/8', '::1/128'],
    });
    for (const bad of ['10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/2', '999.1.1.1', '-1']) {
      expect(typeof parseTrustedProxies(bad), bad).toBe('string');
    }
    expect(() => loadConfig({ TANDEM_TRUSTED_PROXIES: 'everyone' })).toThrow(
      /TANDEM_TRUSTED_PROXIES must be/,
    );
  });

  it('matches peers by range, including IPv4 peers seen on a dual-stack socket', () => {
    const trust = trustFunction({ kind: 'addresses', ranges: ['10.0.0.0/8', '::1/128'] });
    expect(trust('10.9.8.7', 0)).toBe(true);
    expect(trust('::ffff:10.9.8.7', 0)).toBe(true);
    expect(trust('::1', 0)).toBe(true);
    expect(trust('11.0.0.1', 0)).toBe(false);
    expect(trust('not an ip', 0)).toBe(false);
    const hops = trustFunction({ kind: 'hops', hops: 1 });
    expect([hops('1.2.3.4', 0), hops('1.2.3.4', 1)]).toEqual([true, false]);
  });

  it('gives previews the forwarded host and client chain only from a trusted peer', () => {
    const trust = trustFunction({ kind: 'addresses', ranges: ['10.0.0.1'] });
    const request = (peer: string) => ({
      headers: {
        host: 'internal:8080',
        'x-forwarded-host': 'a.evil.example, web-1.preview.example.com',
        'x-forwarded-for': '6.6.6.6',
      },
      socket: { remoteAddress: peer },
    });
    expect(forwardedHost(request('10.0.0.1'), trust)).toBe('web-1.preview.example.com');
    expect(forwardedFor(request('10.0.0.1'), trust)).toBe('6.6.6.6, 10.0.0.1');
    expect(forwardedHost(request('10.0.0.2'), trust)).toBe('internal:8080');
    expect(forwardedFor(request('10.0.0.2'), trust)).toBe('10.0.0.2');
  });
});

describe('forwarded protocol and host in the app', () => {
  const direct = useTestApp();
  const proxied = useTestApp('pglite', {
    edge: { trustedProxies: { kind: 'addresses', ranges: ['10.0.0.1'] } },
  });
  const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

  const redirectUri = async (app: ReturnType<typeof direct>, remoteAddress: string) => {
    const res = await app.server.inject({ url: '/auth/github', headers: forged, remoteAddress });
    return new URL(res.headers.location as string).searchParams.get('redirect_uri');
  };

  it('builds the OAuth callback address from forwarded headers only when a trusted proxy sent them', async () => {
    expect(await redirectUri(direct(), '10.0.0.1')).toBe('http://localhost:80/auth/github/callback');
    expect(await redirectUri(proxied(), '10.0.0.2')).toBe('http://localhost:80/auth/github/callback');
    expect(await redirectUri(proxied(), '10.0.0.1')).toBe('https://evil.example/auth/github/callback');
  });

  it('does not let a forged X-Forwarded-Host make a cross-site Origin look like ours', async () => {
    const app = direct();
    const user = await app.signIn({ username: 'forger' });
    const res = await app.server.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...forged, origin: 'https://evil.example' },
      cookies: { [SESSION_COOKIE]: user.token },
      remoteAddress: '203.0.113.50',
    });
    expect(res.statusCode).toBe(403);
    const me = await app.server.inject({
      url: '/api/users/me',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(me.statusCode).toBe(200);
  });
});
