export class OAuthCodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OAuthCodeError';
  }
}

export function oauthAuthorizeUrl(options: {
  webUrl: string;
  clientId: string;
  redirectUri: string;
  state: string;
}): string {
  const url = new URL(`${options.webUrl.replace(/\/$/, '')}/login/oauth/authorize`);
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  return url.toString();
}

/** Exchanges a sign-in code for a user token. GitHub refuses a bad code with 200 and `error`. */
export async function exchangeOAuthCode(options: {
  webUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri?: string;
}): Promise<{ accessToken: string; scope: string }> {
  const response = await fetch(`${options.webUrl.replace(/\/$/, '')}/login/oauth/access_token`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: options.clientId,
      client_secret: options.clientSecret,
      code: options.code,
      ...(options.redirectUri ? { redirect_uri: options.redirectUri } : {}),
    }),
  });
  if (!response.ok) throw new Error(`OAuth token exchange answered ${response.status}`);
  const body = (await response.json()) as {
    access_token?: string;
    scope?: string;
    error?: string;
    error_description?: string;
  };
  if (!body.access_token) throw new OAuthCodeError(body.error_description ?? body.error ?? 'No access token');
  return { accessToken: body.access_token, scope: body.scope ?? '' };
}
