import {
  createAppAuthProvider,
  createGitHubClient,
  exchangeOAuthCode,
  getOrgMembershipRole,
  listUserInstallationRepositories,
  listUserInstallations,
  OAuthCodeError,
  permissionLevel,
  oauthAuthorizeUrl,
  verifyWebhookSignature,
  type AppAuthProvider,
  type ClientLogger,
} from '@tandem/github';
import {
  CodeHostAuthError,
  CodeHostRequestError,
  type CodeHostGateway,
  type CodeHostUserView,
} from './gateway.js';

export interface OctokitGatewayOptions {
  apiUrl: string;
  webUrl: string;
  appSlug: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** The App's credentials; without them the gateway cannot read repositories as an installation. */
  appId?: number | string;
  privateKey?: string;
  logger?: ClientLogger;
}

/** The code-host gateway over @tandem/github: one implementation for github.com, GHE and the local code host. */
export function createOctokitGateway(options: OctokitGatewayOptions): CodeHostGateway {
  let appAuth: AppAuthProvider | undefined;
  const installationClient = (installationId: number) => {
    if (options.appId === undefined || !options.privateKey) {
      throw new Error('The code host gateway has no App credentials to act as an installation');
    }
    appAuth ??= createAppAuthProvider({
      appId: options.appId,
      privateKey: options.privateKey,
      baseUrl: options.apiUrl,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    return appAuth.installationOctokit(installationId);
  };
  return {
    webUrl: options.webUrl,
    installUrl: `${options.webUrl}/apps/${encodeURIComponent(options.appSlug)}/installations/new`,

    authorizeUrl: ({ redirectUri, state }) =>
      oauthAuthorizeUrl({ webUrl: options.webUrl, clientId: options.clientId, redirectUri, state }),

    async exchangeCode({ code, redirectUri }) {
      try {
        const { accessToken } = await exchangeOAuthCode({
          webUrl: options.webUrl,
          clientId: options.clientId,
          clientSecret: options.clientSecret,
          code,
          redirectUri,
        });
        return accessToken;
      } catch (error) {
        if (error instanceof OAuthCodeError) throw new CodeHostAuthError(error.message);
        throw error;
      }
    },

    async loadUserView(token): Promise<CodeHostUserView> {
      const client = createGitHubClient({
        baseUrl: options.apiUrl,
        auth: token,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      const { data: me } = await client.rest.users.getAuthenticated();
      const view: CodeHostUserView = {
        user: { id: me.id, login: me.login, email: me.email ?? null, avatarUrl: me.avatar_url || null },
        installations: [],
      };
      for (const installation of await listUserInstallations(client)) {
        const { account } = installation;
        // A personal installation belongs to its owner; an organisation's admins administer it.
        const role =
          account.type === 'User'
            ? account.login.toLowerCase() === me.login.toLowerCase()
              ? 'admin'
              : 'member'
            : (await getOrgMembershipRole(client, account.login)) === 'admin'
              ? 'admin'
              : 'member';
        view.installations.push({
          installation,
          role,
          repositories: await listUserInstallationRepositories(client, installation.id),
        });
      }
      return view;
    },

    installationClient,

    async repositoryPermission(installationId, repository, username) {
      try {
        const { data } = await installationClient(installationId).rest.repos.getCollaboratorPermissionLevel({
          owner: repository.owner,
          repo: repository.name,
          username,
        });
        // GitHub's legacy names and newer roles ('maintain', 'triage') folded into four levels.
        return permissionLevel(data.permission);
      } catch (error) {
        // 404: the user or repository is unknown to the code host (or hidden from the App).
        if ((error as { status?: number }).status === 404) return 'none';
        throw error;
      }
    },

    verifyWebhook: (rawBody, signature) => verifyWebhookSignature(options.webhookSecret, rawBody, signature),

    async findUser(installationId, login) {
      try {
        const { data } = await this.installationClient(installationId).rest.users.getByUsername({
          username: login,
        });
        if (data.type !== 'User') return null;
        return { id: data.id, login: data.login, avatarUrl: data.avatar_url || null };
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },

    async createRepoFromTemplate(token, request) {
      const client = createGitHubClient({
        baseUrl: options.apiUrl,
        auth: token,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      try {
        const { data } = await client.rest.repos.createUsingTemplate({
          template_owner: request.templateOwner,
          template_repo: request.templateRepo,
          owner: request.owner,
          name: request.name,
          description: request.description,
          private: request.private,
        });
        return {
          id: data.id,
          fullName: data.full_name,
          private: data.private,
          defaultBranch: data.default_branch ?? 'main',
        };
      } catch (error) {
        const status = (error as { status?: number }).status;
        if (typeof status === 'number' && status >= 400 && status < 500) {
          throw new CodeHostRequestError(status, (error as Error).message);
        }
        throw error;
      }
    },
  };
}
