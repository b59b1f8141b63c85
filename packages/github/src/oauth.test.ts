import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeOAuthCode, OAuthCodeError, OAuthExchangeError, oauthAuthorizeUrl } from './oauth.js';
import { startScriptedServer, type ScriptedServer } from './testing/scripted-server.js';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

const exchange = () =>
  exchangeOAuthCode({
    webUrl: `${server.url}/`,
    clientId: 'Iv1.abc',
    clientSecret: 'shh',
    code: 'code-1',
    redirectUri: 'http://localhost:3000/auth/callback',
  });

describe('OAuth web flow', () => {
  it('builds the authorize URL on the host’s web URL', () => {
    const url = new URL(
      oauthAuthorizeUrl({
        webUrl: 'https://ghe.example.com/',
        clientId: 'Iv1.abc',
        redirectUri: 'https://tandem.example.com/auth/callback',
        state: 's t&ate',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://ghe.example.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'Iv1.abc',
      redirect_uri: 'https://tandem.example.com/auth/callback',
      state: 's t&ate',
    });
  });

  it('exchanges a code for a token', async () => {
    server.answer({
      status: 200,
      body: {
        access_token: 'ghu_1',
        scope: '',
        token_type: 'bearer',
        refresh_token: 'ghr_1',
        expires_in: 28800,
      },
    });
    expect(await exchange()).toEqual({
      accessToken: 'ghu_1',
      scope: '',
      tokenType: 'bearer',
      refreshToken: 'ghr_1',
      expiresInSeconds: 28800,
    });
    const [req] = server.requests;
    expect(req).toMatchObject({ method: 'POST', url: '/login/oauth/access_token' });
    expect(req!.headers.accept).toBe('application/json');
    expect(JSON.parse(req!.body)).toEqual({
      client_id: 'Iv1.abc',
      client_secret: 'shh',
      code: 'code-1',
      redirect_uri: 'http://localhost:3000/auth/callback',
    });
  });

  it('turns GitHub’s 200-with-error refusal into an OAuthCodeError', async () => {
    server.answer({
      status: 200,
      body: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
    });
    const failure = exchange();
    await expect(failure).rejects.toBeInstanceOf(OAuthCodeError);
    await expect(failure).rejects.toMatchObject({
      code: 'bad_verification_code',
      message: 'The code passed is incorrect or expired. (bad_verification_code)',
    });
  });

  it('reports a failing host as an OAuthExchangeError', async () => {
    server.answer({ status: 502 });
    await expect(exchange()).rejects.toBeInstanceOf(OAuthExchangeError);
    server.answer({ status: 500, body: { message: 'boom' } });
    await expect(exchange()).rejects.toMatchObject({ name: 'OAuthExchangeError', httpStatus: 500 });
  });
});
