import { createAppAuth } from '@octokit/auth-app';
import { request as baseRequest } from '@octokit/request';
import { createGitHubClient, type GitHubClient, type GitHubClientOptions } from './client.js';

export interface AppAuthOptions extends Omit<GitHubClientOptions, 'auth'> {
  appId: number;
  privateKey: string;
}

/**
 * GitHub App authentication: an App JWT client, and installation tokens that @octokit/auth-app
 * caches until shortly before they expire, so each installation costs one token call an hour.
 */
export function createAppAuthProvider(options: AppAuthOptions) {
  const auth = createAppAuth({
    appId: options.appId,
    privateKey: options.privateKey,
    request: baseRequest.defaults({ baseUrl: options.baseUrl.replace(/\/$/, '') }),
  });
  return {
    async appClient(): Promise<GitHubClient> {
      const { token } = await auth({ type: 'app' });
      return createGitHubClient({ ...options, auth: token });
    },
    async installationToken(installationId: number): Promise<string> {
      const { token } = await auth({ type: 'installation', installationId });
      return token;
    },
    async installationClient(installationId: number): Promise<GitHubClient> {
      return createGitHubClient({ ...options, auth: await this.installationToken(installationId) });
    },
  };
}
