import type { GitHubClient } from '@tandem/github';
import type { CodeHostInstallation, CodeHostRepository } from '../services/code-host-sync.js';

/** What the code host tells us about a signed-in user, gathered with their OAuth token. */
export interface CodeHostUserView {
  user: { id: number; login: string; email: string | null; avatarUrl: string | null };
  installations: {
    installation: CodeHostInstallation;
    role: 'admin' | 'member';
    repositories: CodeHostRepository[];
  }[];
}

/**
 * The product's view of the code host (github.com, GitHub Enterprise or the local code host): the
 * same implementation serves all three, configured only with URLs and App credentials.
 */
export interface CodeHostGateway {
  readonly webUrl: string;
  /** Where a user installs the App on one of their accounts. */
  readonly installUrl: string;
  authorizeUrl(options: { redirectUri: string; state: string }): string;
  /** Exchanges an OAuth code for a user token; throws CodeHostAuthError when the code is refused. */
  exchangeCode(options: { code: string; redirectUri: string }): Promise<string>;
  loadUserView(userToken: string): Promise<CodeHostUserView>;
  /** Reads repositories as the App's installation (the workspace's diff, file and script reads). */
  installationClient(installationId: number): GitHubClient;
  verifyWebhook(rawBody: string, signature: string | undefined): Promise<boolean>;
  /**
   * A user's permission on an installed repository, asked as the App's installation (so it does not
   * depend on the user's OAuth token still being valid). 'none' for no access or an unknown user.
   */
  repositoryPermission(
    installationId: number,
    repository: { owner: string; name: string },
    username: string,
  ): Promise<RepositoryPermission>;

  /**
   * A code-host user (not an organisation) by login, read as the installation; null when there is
   * none. Throws when the code host cannot be asked.
   */
  findUser(installationId: number, login: string): Promise<CodeHostUserSummary | null>;
  /** Creates `owner/name` from a template repository, acting as the user. */
  createRepoFromTemplate(
    userToken: string,
    request: {
      owner: string;
      name: string;
      description: string;
      private: boolean;
      templateOwner: string;
      templateRepo: string;
    },
  ): Promise<CodeHostRepository>;
}

/** GitHub's collaborator permission levels ('maintain' reads as write, 'triage' as read). */
export type RepositoryPermission = 'admin' | 'write' | 'read' | 'none';

export interface CodeHostUserSummary {
  id: number;
  login: string;
  avatarUrl: string | null;
}

/** The code host refused to create a repository; `status` is its HTTP status. */
export class CodeHostRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'CodeHostRequestError';
  }
}

export class CodeHostAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodeHostAuthError';
  }
}
