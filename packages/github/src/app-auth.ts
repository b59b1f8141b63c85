import { createAppAuth } from '@octokit/auth-app';
import { buildClient, type GitHubClient, type GitHubClientOptions } from './client.js';
import type { InstallationSummary } from './schemas.js';
import { installationSummary } from './users.js';

export interface AppAuthOptions extends Omit<GitHubClientOptions, 'auth' | 'throttleKey'> {
  appId: number | string;
  /** PEM, PKCS#1 or PKCS#8, as GitHub (or the local code host) issued it. */
  privateKey: string;
}

export interface AppAuthProvider {
  /** Signed in as the App itself (a JWT): only the `/app/…` endpoints accept it. */
  readonly appOctokit: GitHubClient;
  /** A token for one installation, fetched once and reused until shortly before it expires. */
  installationToken(installationId: number): Promise<string>;
  /** A client acting as an installation; it picks up renewed tokens by itself. */
  installationOctokit(installationId: number): GitHubClient;
  getInstallation(installationId: number): Promise<InstallationSummary>;
  listInstallations(): Promise<InstallationSummary[]>;
}

/**
 * Renew this long before expiry: tokens also go into git remotes and long agent steps, which must
 * not find them expired halfway (GitHub's tokens last an hour).
 */
export const TOKEN_RENEW_BEFORE_EXPIRY_MS = 5 * 60_000;

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** GitHub App authentication: the App's JWT client and cached per-installation tokens. */
export function createAppAuthProvider(options: AppAuthOptions): AppAuthProvider {
  const { appId, privateKey, ...clientOptions } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // @octokit/auth-app signs the JWT and puts it on /app/… requests; token requests go through
  // this client too, so they get the retry rules and the throttling plugin's auth limiter.
  const appOctokit = buildClient(clientOptions, {
    authStrategy: createAppAuth,
    auth: { appId, privateKey },
    throttleKey: `${baseUrl} app ${appId}`,
  });

  const tokens = new Map<number, CachedToken>();
  const pending = new Map<number, Promise<string>>();
  const clients = new Map<number, GitHubClient>();

  async function fetchToken(installationId: number): Promise<string> {
    const { data } = await appOctokit.rest.apps.createInstallationAccessToken({
      installation_id: installationId,
    });
    const expiresAt = Date.parse(data.expires_at);
    // An unreadable expiry is not cached: a token we cannot age must not be reused blindly.
    if (Number.isFinite(expiresAt)) tokens.set(installationId, { token: data.token, expiresAt });
    else tokens.delete(installationId);
    return data.token;
  }

  function installationToken(installationId: number): Promise<string> {
    const cached = tokens.get(installationId);
    if (cached && cached.expiresAt - Date.now() > TOKEN_RENEW_BEFORE_EXPIRY_MS)
      return Promise.resolve(cached.token);
    // Concurrent callers share one request instead of each minting a token.
    let inFlight = pending.get(installationId);
    if (!inFlight) {
      inFlight = fetchToken(installationId).finally(() => pending.delete(installationId));
      pending.set(installationId, inFlight);
    }
    return inFlight;
  }

  return {
    appOctokit,
    installationToken,
    installationOctokit(installationId) {
      let client = clients.get(installationId);
      if (!client) {
        client = buildClient(clientOptions, {
          tokenSource: () => installationToken(installationId),
          throttleKey: `${baseUrl} installation ${installationId}`,
        });
        clients.set(installationId, client);
      }
      return client;
    },
    async getInstallation(installationId) {
      const { data } = await appOctokit.rest.apps.getInstallation({ installation_id: installationId });
      const summary = installationSummary(data);
      if (!summary)
        throw new Error(`Installation ${installationId} is not on a user or organisation account`);
      return summary;
    },
    async listInstallations() {
      const installations = await appOctokit.paginate(appOctokit.rest.apps.listInstallations, {
        per_page: 100,
      });
      return installations.flatMap((installation) => installationSummary(installation) ?? []);
    },
  };
}
