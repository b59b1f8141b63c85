/**
 * Signing in with the code host (OAuth web flow). Both calls go to the host's web URL, not its API
 * (github.com, https://HOST for GitHub Enterprise, the local code host's root), so they are plain
 * fetches rather than Octokit requests.
 */

/** The host refused the code or the app credentials; `code` is GitHub's `error`, e.g. 'bad_verification_code'. */
export class OAuthCodeError extends Error {
  readonly code: string;
  constructor(code: string, description?: string) {
    super(description ? `${description} (${code})` : code);
    this.name = 'OAuthCodeError';
    this.code = code;
  }
}

/** The exchange itself failed (network, 5xx, not JSON): worth retrying later, unlike a refused code. */
export class OAuthExchangeError extends Error {
  readonly httpStatus: number | undefined;
  constructor(message: string, httpStatus?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OAuthExchangeError';
    this.httpStatus = httpStatus;
  }
}

export interface OAuthToken {
  accessToken: string;
  scope: string;
  tokenType: string;
  /** Set when the App uses expiring user tokens (GitHub's default: 8 hours, renewable). */
  refreshToken: string | null;
  expiresInSeconds: number | null;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function oauthAuthorizeUrl(options: {
  webUrl: string;
  clientId: string;
  redirectUri: string;
  state: string;
}): string {
  const url = new URL(`${trimSlash(options.webUrl)}/login/oauth/authorize`);
  url.searchParams.set('client_id', options.clientId);
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('state', options.state);
  return url.toString();
}

interface TokenResponse {
  access_token?: unknown;
  scope?: unknown;
  token_type?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

const EXCHANGE_TIMEOUT_MS = 30_000;

/**
 * Exchanges a sign-in code for a user token. GitHub refuses a bad or used code with 200 and an
 * `error` field, not an HTTP error: that, and any other refusal, is an OAuthCodeError.
 */
export async function exchangeOAuthCode(options: {
  webUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri?: string;
}): Promise<OAuthToken> {
  let response: Response;
  try {
    response = await fetch(`${trimSlash(options.webUrl)}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        code: options.code,
        ...(options.redirectUri ? { redirect_uri: options.redirectUri } : {}),
      }),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
  } catch (error) {
    throw new OAuthExchangeError('OAuth token exchange failed to reach the code host', undefined, {
      cause: error,
    });
  }
  let body: TokenResponse;
  try {
    body = (await response.json()) as TokenResponse;
  } catch (error) {
    throw new OAuthExchangeError(
      `OAuth token exchange answered ${response.status} without JSON`,
      response.status,
      {
        cause: error,
      },
    );
  }
  if (typeof body.error === 'string' && body.error)
    throw new OAuthCodeError(
      body.error,
      typeof body.error_description === 'string' ? body.error_description : undefined,
    );
  if (!response.ok)
    throw new OAuthExchangeError(`OAuth token exchange answered ${response.status}`, response.status);
  if (typeof body.access_token !== 'string' || !body.access_token)
    throw new OAuthExchangeError('OAuth token exchange returned no access token', response.status);
  return {
    accessToken: body.access_token,
    scope: typeof body.scope === 'string' ? body.scope : '',
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'bearer',
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null,
    expiresInSeconds: typeof body.expires_in === 'number' ? body.expires_in : null,
  };
}
