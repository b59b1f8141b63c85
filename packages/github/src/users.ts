import type { GitHubClient } from './client.js';
import { statusOf, type RepoRef } from './reads/repo-ref.js';
import type {
  AccountSummary,
  AuthenticatedUser,
  InstallationRepository,
  InstallationSummary,
  OrgRole,
  RepoPermission,
} from './schemas.js';

// Reads made with a signed-in user's OAuth token: who they are and what they can reach.

export async function getAuthenticatedUser(octokit: GitHubClient): Promise<AuthenticatedUser> {
  const { data } = await octokit.rest.users.getAuthenticated();
  return {
    id: data.id,
    login: data.login,
    name: data.name ?? null,
    email: data.email ?? null,
    avatarUrl: data.avatar_url || null,
  };
}

interface RawAccount {
  id: number;
  login?: string;
  slug?: string;
  type?: string;
  avatar_url?: string;
}

/** An installation's account; GitHub may send an enterprise (slug, no login), which we skip. */
export function accountSummary(account: RawAccount | null | undefined): AccountSummary | null {
  if (!account?.login) return null;
  return {
    id: account.id,
    login: account.login,
    type: account.type === 'Organization' ? 'Organization' : 'User',
    avatarUrl: account.avatar_url || null,
  };
}

export function installationSummary(installation: {
  id: number;
  account: RawAccount | null;
}): InstallationSummary | null {
  const account = accountSummary(installation.account);
  return account ? { id: installation.id, account } : null;
}

/** The App's installations the user can reach, all pages. */
export async function listUserInstallations(octokit: GitHubClient): Promise<InstallationSummary[]> {
  const installations = await octokit.paginate(octokit.rest.apps.listInstallationsForAuthenticatedUser, {
    per_page: 100,
  });
  return installations.flatMap((installation) => installationSummary(installation) ?? []);
}

/** The repositories of one installation that the user can see, all pages. */
export async function listUserInstallationRepositories(
  octokit: GitHubClient,
  installationId: number,
): Promise<InstallationRepository[]> {
  const repos = await octokit.paginate(octokit.rest.apps.listInstallationReposForAuthenticatedUser, {
    installation_id: installationId,
    per_page: 100,
  });
  return repos.map((repo) => ({
    id: repo.id,
    fullName: repo.full_name,
    private: repo.private,
    defaultBranch: repo.default_branch ?? 'main',
  }));
}

/**
 * The user's role in an organisation, or null when they are not an active member (an invitation
 * still pending counts as not a member; GitHub answers 404 or 403 for strangers).
 */
export async function getOrgMembershipRole(octokit: GitHubClient, org: string): Promise<OrgRole | null> {
  try {
    const { data } = await octokit.rest.orgs.getMembershipForAuthenticatedUser({ org });
    if (data.state !== 'active') return null;
    return data.role === 'admin' ? 'admin' : 'member';
  } catch (error) {
    const status = statusOf(error);
    if (status === 404 || status === 403) return null;
    throw error;
  }
}

/** GitHub's legacy permission names plus the newer roles, folded into the spec's four levels. */
export function permissionLevel(value: string | null | undefined): RepoPermission {
  switch (value) {
    case 'admin':
      return 'admin';
    case 'maintain':
    case 'write':
      return 'write';
    case 'triage':
    case 'read':
      return 'read';
    default:
      return 'none';
  }
}

/**
 * A user's permission on a repository. GitHub only shows collaborator permissions to callers with
 * push access; for the signed-in user's own level use getViewerRepoPermission. A 404 (no such user
 * or repository) is 'none'.
 */
export async function getRepoPermission(
  octokit: GitHubClient,
  at: RepoRef & { username: string },
): Promise<RepoPermission> {
  try {
    const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({
      owner: at.owner,
      repo: at.repo,
      username: at.username,
    });
    return permissionLevel(data.permission);
  } catch (error) {
    if (statusOf(error) === 404) return 'none';
    throw error;
  }
}

/** The token holder's own permission, from the repository's `permissions`; works for readers too. */
export async function getViewerRepoPermission(octokit: GitHubClient, at: RepoRef): Promise<RepoPermission> {
  try {
    const { data } = await octokit.rest.repos.get({ owner: at.owner, repo: at.repo });
    const p = data.permissions;
    if (!p) return 'none';
    if (p.admin) return 'admin';
    if (p.maintain || p.push) return 'write';
    if (p.triage || p.pull) return 'read';
    return 'none';
  } catch (error) {
    if (statusOf(error) === 404) return 'none';
    throw error;
  }
}
