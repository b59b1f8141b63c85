import { Octokit } from '@octokit/rest';
import { verify } from '@octokit/webhooks-methods';
import { CodeHostAuthError, type CodeHostGateway, type CodeHostUserView } from './gateway.js';

export interface OctokitGatewayOptions {
  apiUrl: string;
  webUrl: string;
  appSlug: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  userAgent?: string;
}

/** The code-host gateway over Octokit: one implementation for github.com, GHE and the local code host. */
export function createOctokitGateway(options: OctokitGatewayOptions): CodeHostGateway {
  const userOctokit = (token: string) =>
    new Octokit({
      baseUrl: options.apiUrl,
      auth: token,
      userAgent: options.userAgent ?? 'tandem',
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });

  return {
    webUrl: options.webUrl,
    installUrl: `${options.webUrl}/apps/${encodeURIComponent(options.appSlug)}/installations/new`,

    authorizeUrl({ redirectUri, state }) {
      const url = new URL(`${options.webUrl}/login/oauth/authorize`);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      return url.toString();
    },

    async exchangeCode({ code, redirectUri }) {
      const response = await fetch(`${options.webUrl}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: options.clientId,
          client_secret: options.clientSecret,
          code,
          redirect_uri: redirectUri,
        }),
      });
      if (!response.ok) throw new Error(`OAuth token exchange answered ${response.status}`);
      // GitHub answers a refused code with 200 and an `error` field.
      const body = (await response.json()) as {
        access_token?: string;
        error?: string;
        error_description?: string;
      };
      if (!body.access_token)
        throw new CodeHostAuthError(body.error_description ?? body.error ?? 'No access token');
      return body.access_token;
    },

    async loadUserView(token): Promise<CodeHostUserView> {
      const octokit = userOctokit(token);
      const { data: me } = await octokit.rest.users.getAuthenticated();
      const installations = await octokit.paginate(octokit.rest.apps.listInstallationsForAuthenticatedUser, {
        per_page: 100,
      });
      const view: CodeHostUserView = {
        user: { id: me.id, login: me.login, email: me.email ?? null, avatarUrl: me.avatar_url || null },
        installations: [],
      };
      for (const installation of installations) {
        const account = installation.account;
        if (!account || !('login' in account)) continue;
        const type = account.type === 'Organization' ? 'Organization' : 'User';
        const repos = await octokit.paginate(octokit.rest.apps.listInstallationReposForAuthenticatedUser, {
          installation_id: installation.id,
          per_page: 100,
        });
        view.installations.push({
          installation: {
            id: installation.id,
            account: { id: account.id, login: account.login, type, avatarUrl: account.avatar_url || null },
          },
          role:
            type === 'User'
              ? account.login.toLowerCase() === me.login.toLowerCase()
                ? 'admin'
                : 'member'
              : await orgRole(octokit, account.login),
          repositories: repos.map((r) => ({
            id: r.id,
            fullName: r.full_name,
            private: r.private,
            defaultBranch: r.default_branch ?? 'main',
          })),
        });
      }
      return view;
    },

    async verifyWebhook(rawBody, signature) {
      if (!signature) return false;
      try {
        return await verify(options.webhookSecret, rawBody, signature);
      } catch {
        return false;
      }
    },
  };
}

/** An organisation's admins administer its installation; everyone else who can reach it is a member. */
async function orgRole(octokit: Octokit, org: string): Promise<'admin' | 'member'> {
  try {
    const { data } = await octokit.rest.orgs.getMembershipForAuthenticatedUser({ org });
    return data.state === 'active' && data.role === 'admin' ? 'admin' : 'member';
  } catch {
    return 'member';
  }
}
