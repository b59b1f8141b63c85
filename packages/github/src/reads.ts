import type { GitHubClient } from './client.js';
import { graphqlQuery } from './graphql.js';

/** Workspace §3 "File read result": text, or why there is none. A missing file reads as empty. */
export type FileReadResult =
  | { status: 'ok'; contents: string }
  | { status: 'not_found'; contents: '' }
  | { status: 'binary' }
  | { status: 'too_large' }
  | { status: 'error'; message: string };

export interface RepoRef {
  owner: string;
  repo: string;
}

/** Past this we do not ship a file to a browser or a model. */
export const MAX_FILE_BYTES = 1024 * 1024;

const statusOf = (error: unknown) => (error as { status?: number }).status;

export async function readFile(
  client: GitHubClient,
  ref: RepoRef & { path: string; ref?: string },
): Promise<FileReadResult> {
  try {
    const { data } = await client.rest.repos.getContent({
      owner: ref.owner,
      repo: ref.repo,
      path: ref.path,
      ...(ref.ref ? { ref: ref.ref } : {}),
    });
    if (Array.isArray(data) || data.type !== 'file')
      return { status: 'error', message: `${ref.path} is not a file` };
    if (data.size > MAX_FILE_BYTES || !('content' in data) || data.encoding === 'none')
      return { status: 'too_large' };
    const bytes = Buffer.from(data.content, 'base64');
    if (bytes.includes(0)) return { status: 'binary' };
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      return { status: 'ok', contents: text.decode(bytes) };
    } catch {
      return { status: 'binary' };
    }
  } catch (error) {
    if (statusOf(error) === 404) return { status: 'not_found', contents: '' };
    return { status: 'error', message: (error as Error).message };
  }
}

export interface PullSummary {
  title: string;
  body: string;
  headBranch: string;
  baseBranch: string;
  baseSha: string;
  commits: number;
  mergeCommitSha: string | null;
  mergeable: boolean | null;
}

export async function getPullSummary(
  client: GitHubClient,
  ref: RepoRef & { number: number },
): Promise<PullSummary> {
  const { data } = await client.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number });
  return {
    title: data.title,
    body: data.body ?? '',
    headBranch: data.head.ref,
    baseBranch: data.base.ref,
    baseSha: data.base.sha,
    commits: data.commits,
    mergeCommitSha: data.merge_commit_sha ?? null,
    mergeable: data.mergeable ?? null,
  };
}

export interface CommitSummary {
  title: string;
  sha: string;
}

export async function getCommit(
  client: GitHubClient,
  ref: RepoRef & { ref: string },
): Promise<CommitSummary> {
  const { data } = await client.rest.repos.getCommit({ owner: ref.owner, repo: ref.repo, ref: ref.ref });
  return { title: data.commit.message.split('\n')[0] ?? '', sha: data.sha };
}

/** The spec sends an empty If-None-Match so a cached 304 never hides new commits. */
export async function listPullCommits(
  client: GitHubClient,
  ref: RepoRef & { number: number },
): Promise<CommitSummary[]> {
  const commits = await client.paginate(client.rest.pulls.listCommits, {
    owner: ref.owner,
    repo: ref.repo,
    pull_number: ref.number,
    per_page: 100,
    headers: { 'if-none-match': '' },
  });
  return commits.map((c) => ({ title: c.commit.message.split('\n')[0] ?? '', sha: c.sha }));
}

export interface BranchComparison {
  baseCommit: string;
  commits: CommitSummary[];
  aheadBy: number;
  behindBy: number;
  filesChanged: number;
  totalAdditions: number;
  totalDeletions: number;
}

export async function compareBranches(
  client: GitHubClient,
  ref: RepoRef & { base: string; head: string },
): Promise<BranchComparison> {
  const { data } = await client.rest.repos.compareCommitsWithBasehead({
    owner: ref.owner,
    repo: ref.repo,
    basehead: `${ref.base}...${ref.head}`,
  });
  const files = data.files ?? [];
  return {
    baseCommit: data.base_commit.sha,
    commits: data.commits.map((c) => ({ title: c.commit.message.split('\n')[0] ?? '', sha: c.sha })),
    aheadBy: data.ahead_by,
    behindBy: data.behind_by,
    filesChanged: files.length,
    totalAdditions: files.reduce((n, f) => n + f.additions, 0),
    totalDeletions: files.reduce((n, f) => n + f.deletions, 0),
  };
}

export async function pullsForCommit(
  client: GitHubClient,
  ref: RepoRef & { sha: string },
): Promise<number[]> {
  const { data } = await client.rest.repos.listPullRequestsAssociatedWithCommit({
    owner: ref.owner,
    repo: ref.repo,
    commit_sha: ref.sha,
  });
  return data.map((p) => p.number);
}

export interface IssueSummary {
  title: string;
  body: string;
  comments: number;
}

export async function getIssueSummary(
  client: GitHubClient,
  ref: RepoRef & { number: number },
): Promise<IssueSummary> {
  const { data } = await client.rest.issues.get({
    owner: ref.owner,
    repo: ref.repo,
    issue_number: ref.number,
  });
  return { title: data.title, body: data.body ?? '', comments: data.comments };
}

export async function getDefaultBranch(client: GitHubClient, ref: RepoRef): Promise<string> {
  const { data } = await client.rest.repos.get({ owner: ref.owner, repo: ref.repo });
  return data.default_branch;
}

export interface CommitDiff {
  filename: string;
  previousFilename: string | null;
  status: 'added' | 'removed' | 'renamed' | 'modified';
  additions: number;
  deletions: number;
}

export async function getCommitDiffs(
  client: GitHubClient,
  ref: RepoRef & { ref: string },
): Promise<CommitDiff[]> {
  const { data } = await client.rest.repos.getCommit({ owner: ref.owner, repo: ref.repo, ref: ref.ref });
  return (data.files ?? []).map((f) => ({
    filename: f.filename,
    previousFilename: f.previous_filename ?? null,
    status: f.status === 'added' || f.status === 'removed' || f.status === 'renamed' ? f.status : 'modified',
    additions: f.additions,
    deletions: f.deletions,
  }));
}

export interface BranchEntry {
  name: string;
  committedDate: string;
}

const BRANCHES_QUERY = `query($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    refs(refPrefix: "refs/heads/", first: 100, after: $cursor, orderBy: {field: TAG_COMMIT_DATE, direction: DESC}) {
      nodes { name target { ... on Commit { committedDate } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

interface BranchesPage {
  repository: {
    refs: {
      nodes: { name: string; target: { committedDate?: string } | null }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}

/** Every branch, 100 a page through GraphQL, newest commit first. */
export async function listBranches(
  client: GitHubClient,
  ref: RepoRef,
  delayScale = 1,
): Promise<BranchEntry[]> {
  const branches: BranchEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: BranchesPage = await graphqlQuery<BranchesPage>(
      client,
      BRANCHES_QUERY,
      { owner: ref.owner, name: ref.repo, cursor },
      delayScale,
    );
    const refs = page.repository?.refs;
    if (!refs) break;
    branches.push(...refs.nodes.map((n) => ({ name: n.name, committedDate: n.target?.committedDate ?? '' })));
    cursor = refs.pageInfo.hasNextPage ? refs.pageInfo.endCursor : null;
  } while (cursor);
  return branches;
}

export const SCRIPT_FOLDERS = {
  run: '.tandem/run',
  auto: '.tandem/run/auto',
  preview: '.tandem/preview',
} as const;

const TREE_QUERY = `query($owner: String!, $name: String!, $expression: String!) {
  repository(owner: $owner, name: $name) { object(expression: $expression) { ... on Tree { entries { name type } } } }
}`;

interface TreePage {
  repository: { object: { entries?: { name: string; type: string }[] } | null } | null;
}

/** The `.sh` scripts directly inside each script folder at a ref; a folder that fails reads as empty. */
export async function listScripts(
  client: GitHubClient,
  ref: RepoRef & { ref: string },
): Promise<Record<keyof typeof SCRIPT_FOLDERS, string[]>> {
  const entries = await Promise.all(
    Object.entries(SCRIPT_FOLDERS).map(async ([key, folder]) => {
      try {
        const page = await graphqlQuery<TreePage>(client, TREE_QUERY, {
          owner: ref.owner,
          name: ref.repo,
          expression: `${ref.ref}:${folder}`,
        });
        const files = (page.repository?.object?.entries ?? [])
          .filter((e) => e.type === 'blob' && e.name.endsWith('.sh'))
          .map((e) => `${folder}/${e.name}`)
          .sort();
        return [key, files] as const;
      } catch {
        return [key, []] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<keyof typeof SCRIPT_FOLDERS, string[]>;
}

export interface UserInstallationView {
  id: number;
  account: { id: number; login: string; type: 'User' | 'Organization'; avatarUrl: string | null };
}

/** Installations the signed-in user can reach, all pages. */
export async function listUserInstallations(client: GitHubClient): Promise<UserInstallationView[]> {
  const installations = await client.paginate(client.rest.apps.listInstallationsForAuthenticatedUser, {
    per_page: 100,
  });
  return installations.flatMap((i) => {
    const account = i.account;
    if (!account || !('login' in account)) return [];
    return [
      {
        id: i.id,
        account: {
          id: account.id,
          login: account.login,
          type: account.type === 'Organization' ? 'Organization' : 'User',
          avatarUrl: account.avatar_url || null,
        },
      },
    ];
  });
}

export async function listUserInstallationRepositories(client: GitHubClient, installationId: number) {
  const repos = await client.paginate(client.rest.apps.listInstallationReposForAuthenticatedUser, {
    installation_id: installationId,
    per_page: 100,
  });
  return repos.map((r) => ({
    id: r.id,
    fullName: r.full_name,
    private: r.private,
    defaultBranch: r.default_branch ?? 'main',
  }));
}

/** The signed-in user's role in an organisation, or null when they are not an active member. */
export async function getOrgMembershipRole(
  client: GitHubClient,
  org: string,
): Promise<'admin' | 'member' | null> {
  try {
    const { data } = await client.rest.orgs.getMembershipForAuthenticatedUser({ org });
    if (data.state !== 'active') return null;
    return data.role === 'admin' ? 'admin' : 'member';
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 403) return null;
    throw error;
  }
}

export async function getRepoPermission(
  client: GitHubClient,
  ref: RepoRef & { username: string },
): Promise<'admin' | 'write' | 'read' | 'none'> {
  const { data } = await client.rest.repos.getCollaboratorPermissionLevel({
    owner: ref.owner,
    repo: ref.repo,
    username: ref.username,
  });
  const permission = data.permission;
  return permission === 'admin' || permission === 'write' || permission === 'read' ? permission : 'none';
}
