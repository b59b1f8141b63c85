import type { Host } from '../host.js';
import type { HostComment, HostInstallation, HostIssue, HostRepo, HostUser } from '../store/types.js';
import type { CommitInfo } from '../git/repo-reads.js';

/** Offsets the bot's id from the App's id, so neither can be mistaken for a user's. */
const BOT_ID_BASE = 41_000_000;

/** JSON in GitHub's shapes. Only the fields clients read are filled; URLs point at this host. */
export class Shapes {
  /** Known only once the server listens (port 0 picks one), so they are set after start-up. */
  webUrl = '';
  apiUrl = '';

  constructor(private readonly host: Host) {}

  setUrls(webUrl: string, apiUrl: string): void {
    this.webUrl = webUrl;
    this.apiUrl = apiUrl;
  }

  /**
   * The App's bot account, as GitHub shows it on everything the App does: login `{slug}[bot]`,
   * type Bot, and an id of its own (GitHub's bot ids are not the App's id; any fixed non-zero works).
   */
  bot() {
    const login = `${this.host.credentials.slug}[bot]`;
    const id = BOT_ID_BASE + this.host.credentials.appId;
    return {
      login,
      id,
      node_id: `BOT_${id}`,
      avatar_url: `${this.webUrl}/avatars/${encodeURIComponent(login)}.svg`,
      html_url: `${this.webUrl}/apps/${this.host.credentials.slug}`,
      url: `${this.apiUrl}/users/${encodeURIComponent(login)}`,
      type: 'Bot',
      site_admin: false,
    };
  }

  account(login: string) {
    if (login === `${this.host.credentials.slug}[bot]`) return this.bot();
    const user = this.host.user(login);
    const org = user ? undefined : this.host.org(login);
    const id = user?.id ?? org?.id ?? 0;
    return {
      login: user?.login ?? org?.login ?? login,
      id,
      node_id: `U_${id}`,
      avatar_url: `${this.webUrl}/avatars/${encodeURIComponent(login)}.svg`,
      html_url: `${this.webUrl}/${login}`,
      url: `${this.apiUrl}/users/${login}`,
      type: org ? 'Organization' : 'User',
      site_admin: false,
    };
  }

  user(user: HostUser) {
    return { ...this.account(user.login), name: user.name, email: user.email };
  }

  repo(repo: HostRepo) {
    const full = `${repo.owner}/${repo.name}`;
    return {
      id: repo.id,
      node_id: `R_${repo.id}`,
      name: repo.name,
      full_name: full,
      owner: this.account(repo.owner),
      private: repo.private,
      visibility: repo.private ? 'private' : 'public',
      is_template: repo.isTemplate,
      description: repo.description || null,
      default_branch: repo.defaultBranch,
      html_url: `${this.webUrl}/${full}`,
      clone_url: `${this.webUrl}/${full}.git`,
      url: `${this.apiUrl}/repos/${full}`,
      fork: false,
      archived: false,
      disabled: false,
      created_at: repo.createdAt,
      updated_at: repo.createdAt,
      pushed_at: repo.createdAt,
    };
  }

  installation(installation: HostInstallation) {
    const account = this.account(installation.account);
    return {
      id: installation.id,
      account,
      app_id: this.host.credentials.appId,
      app_slug: this.host.credentials.slug,
      target_id: account.id,
      target_type: account.type,
      repository_selection: 'all',
      permissions: { contents: 'write', pull_requests: 'write', issues: 'write', metadata: 'read' },
      events: ['push', 'pull_request', 'pull_request_review', 'issues', 'issue_comment'],
      html_url: `${this.webUrl}/settings/installations/${installation.id}`,
      access_tokens_url: `${this.apiUrl}/app/installations/${installation.id}/access_tokens`,
      created_at: installation.createdAt,
      updated_at: installation.createdAt,
      suspended_at: null,
    };
  }

  commit(repo: HostRepo, commit: CommitInfo) {
    const full = `${repo.owner}/${repo.name}`;
    const person = { name: commit.authorName, email: commit.authorEmail, date: commit.date };
    return {
      sha: commit.sha,
      node_id: `C_${commit.sha}`,
      url: `${this.apiUrl}/repos/${full}/commits/${commit.sha}`,
      html_url: `${this.webUrl}/${full}/commit/${commit.sha}`,
      commit: { message: commit.message, author: person, committer: person, tree: { sha: commit.tree } },
      author: null,
      committer: null,
      parents: commit.parents.map((sha) => ({ sha, url: `${this.apiUrl}/repos/${full}/commits/${sha}` })),
    };
  }

  comment(repo: HostRepo, issue: HostIssue, comment: HostComment) {
    const full = `${repo.owner}/${repo.name}`;
    return {
      id: comment.id,
      node_id: `IC_${comment.id}`,
      body: comment.body,
      user: this.account(comment.author),
      created_at: comment.createdAt,
      updated_at: comment.createdAt,
      html_url: `${this.webUrl}/${full}/issues/${issue.number}#issuecomment-${comment.id}`,
      issue_url: `${this.apiUrl}/repos/${full}/issues/${issue.number}`,
      author_association: 'MEMBER',
    };
  }

  issue(repo: HostRepo, issue: HostIssue) {
    const full = `${repo.owner}/${repo.name}`;
    const kind = issue.pull ? 'pull' : 'issues';
    return {
      id: Number(`${repo.id}${issue.number}`),
      node_id: `I_${repo.id}_${issue.number}`,
      number: issue.number,
      title: issue.title,
      body: issue.body || null,
      state: issue.state,
      user: this.account(issue.author),
      labels: [],
      assignees: [],
      comments: issue.comments.length,
      created_at: issue.createdAt,
      updated_at: issue.updatedAt,
      closed_at: issue.closedAt,
      html_url: `${this.webUrl}/${full}/${kind}/${issue.number}`,
      url: `${this.apiUrl}/repos/${full}/issues/${issue.number}`,
      repository_url: `${this.apiUrl}/repos/${full}`,
      author_association: 'MEMBER',
      ...(issue.pull
        ? {
            pull_request: {
              url: `${this.apiUrl}/repos/${full}/pulls/${issue.number}`,
              html_url: `${this.webUrl}/${full}/pull/${issue.number}`,
            },
          }
        : {}),
    };
  }
}

export function githubError(message: string, status: number) {
  return {
    message,
    documentation_url: 'https://docs.github.com/rest',
    status: String(status),
  };
}
