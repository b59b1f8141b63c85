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
      ...this.accountUrls(encodeURIComponent(login)),
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
      ...this.accountUrls(login),
      type: org ? 'Organization' : 'User',
      site_admin: false,
    };
  }

  /** The API links every GitHub account object carries (templates as GitHub spells them). */
  private accountUrls(login: string) {
    const url = `${this.apiUrl}/users/${login}`;
    return {
      url,
      gravatar_id: '',
      followers_url: `${url}/followers`,
      following_url: `${url}/following{/other_user}`,
      gists_url: `${url}/gists{/gist_id}`,
      starred_url: `${url}/starred{/owner}{/repo}`,
      subscriptions_url: `${url}/subscriptions`,
      organizations_url: `${url}/orgs`,
      repos_url: `${url}/repos`,
      events_url: `${url}/events{/privacy}`,
      received_events_url: `${url}/received_events`,
    };
  }

  /** Reaction counts as GitHub summarises them on issues and comments. */
  /** `subject` as reactions.ts keys it: `issue:{repo}#{number}`, `comment:{id}`, `review_comment:{id}`. */
  reactions(url: string, subject: string) {
    const counts: Record<string, number> = {};
    for (const r of this.host.state.reactions ?? [])
      if (r.subject === subject) counts[r.content] = (counts[r.content] ?? 0) + 1;
    const n = (content: string) => counts[content] ?? 0;
    return {
      url: `${url}/reactions`,
      total_count: Object.values(counts).reduce((a, b) => a + b, 0),
      '+1': n('+1'),
      '-1': n('-1'),
      laugh: n('laugh'),
      confused: n('confused'),
      heart: n('heart'),
      hooray: n('hooray'),
      eyes: n('eyes'),
      rocket: n('rocket'),
    };
  }

  /** A user's public profile (GET /users/{username}): GitHub's public-user fields. */
  user(user: HostUser) {
    return {
      ...this.account(user.login),
      name: user.name,
      email: user.email,
      company: null,
      blog: '',
      location: null,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos: this.host.state.repos.filter((r) => r.owner === user.login && !r.private).length,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
    };
  }

  /** The signed-in user (GET /user): the public profile plus GitHub's private-user fields. */
  privateUser(user: HostUser) {
    const own = this.host.state.repos.filter((r) => r.owner === user.login && r.private).length;
    return {
      ...this.user(user),
      private_gists: 0,
      total_private_repos: own,
      owned_private_repos: own,
      disk_usage: 0,
      collaborators: 0,
      two_factor_authentication: false,
    };
  }

  /** An organisation as memberships show it (organization-simple). */
  organization(login: string) {
    const org = this.host.org(login);
    const id = org?.id ?? 0;
    const url = `${this.apiUrl}/orgs/${login}`;
    return {
      login,
      id,
      node_id: `O_${id}`,
      url,
      repos_url: `${url}/repos`,
      events_url: `${url}/events`,
      hooks_url: `${url}/hooks`,
      issues_url: `${url}/issues`,
      members_url: `${url}/members{/member}`,
      public_members_url: `${url}/public_members{/member}`,
      avatar_url: `${this.webUrl}/avatars/${encodeURIComponent(login)}.svg`,
      description: null,
    };
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
      git_url: `${this.webUrl.replace(/^https?/, 'git')}/${full}.git`,
      ssh_url: `git@${new URL(this.webUrl || 'http://localhost').host}:${full}.git`,
      svn_url: `${this.webUrl}/${full}`,
      mirror_url: null,
      homepage: null,
      language: null,
      license: null,
      topics: [],
      custom_properties: {},
      ...this.repoUrls(`${this.apiUrl}/repos/${full}`),
      fork: false,
      forks: 0,
      forks_count: 0,
      stargazers_count: 0,
      watchers: 0,
      watchers_count: 0,
      open_issues: this.host.state.issues.filter((i) => i.repo === full && i.state === 'open').length,
      open_issues_count: this.host.state.issues.filter((i) => i.repo === full && i.state === 'open').length,
      size: 0,
      has_issues: true,
      has_projects: false,
      has_wiki: false,
      has_pages: false,
      has_downloads: false,
      web_commit_signoff_required: false,
      archived: false,
      disabled: false,
      created_at: repo.createdAt,
      updated_at: repo.createdAt,
      pushed_at: repo.createdAt,
    };
  }

  /** A repository as GET /repos/{owner}/{repo} answers it (full-repository). */
  fullRepo(repo: HostRepo) {
    return { ...this.repo(repo), has_discussions: false, network_count: 0, subscribers_count: 0 };
  }

  private repoUrls(url: string) {
    return {
      url,
      forks_url: `${url}/forks`,
      keys_url: `${url}/keys{/key_id}`,
      collaborators_url: `${url}/collaborators{/collaborator}`,
      teams_url: `${url}/teams`,
      hooks_url: `${url}/hooks`,
      issue_events_url: `${url}/issues/events{/number}`,
      events_url: `${url}/events`,
      assignees_url: `${url}/assignees{/user}`,
      branches_url: `${url}/branches{/branch}`,
      tags_url: `${url}/tags`,
      blobs_url: `${url}/git/blobs{/sha}`,
      git_tags_url: `${url}/git/tags{/sha}`,
      git_refs_url: `${url}/git/refs{/sha}`,
      trees_url: `${url}/git/trees{/sha}`,
      statuses_url: `${url}/statuses/{sha}`,
      languages_url: `${url}/languages`,
      stargazers_url: `${url}/stargazers`,
      contributors_url: `${url}/contributors`,
      subscribers_url: `${url}/subscribers`,
      subscription_url: `${url}/subscription`,
      commits_url: `${url}/commits{/sha}`,
      git_commits_url: `${url}/git/commits{/sha}`,
      comments_url: `${url}/comments{/number}`,
      issue_comment_url: `${url}/issues/comments{/number}`,
      contents_url: `${url}/contents/{+path}`,
      compare_url: `${url}/compare/{base}...{head}`,
      merges_url: `${url}/merges`,
      archive_url: `${url}/{archive_format}{/ref}`,
      downloads_url: `${url}/downloads`,
      issues_url: `${url}/issues{/number}`,
      pulls_url: `${url}/pulls{/number}`,
      milestones_url: `${url}/milestones{/number}`,
      notifications_url: `${url}/notifications{?since,all,participating}`,
      labels_url: `${url}/labels{/name}`,
      releases_url: `${url}/releases{/id}`,
      deployments_url: `${url}/deployments`,
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
      repositories_url: `${this.apiUrl}/installation/repositories`,
      single_file_name: null,
      suspended_by: null,
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
      comments_url: `${this.apiUrl}/repos/${full}/commits/${commit.sha}/comments`,
      commit: {
        url: `${this.apiUrl}/repos/${full}/git/commits/${commit.sha}`,
        message: commit.message,
        author: person,
        committer: person,
        tree: { sha: commit.tree, url: `${this.apiUrl}/repos/${full}/git/trees/${commit.tree}` },
        comment_count: 0,
      },
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
      url: `${this.apiUrl}/repos/${full}/issues/comments/${comment.id}`,
      html_url: `${this.webUrl}/${full}/issues/${issue.number}#issuecomment-${comment.id}`,
      issue_url: `${this.apiUrl}/repos/${full}/issues/${issue.number}`,
      author_association: 'MEMBER',
      performed_via_github_app: null,
      reactions: this.reactions(
        `${this.apiUrl}/repos/${full}/issues/comments/${comment.id}`,
        `comment:${comment.id}`,
      ),
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
      labels_url: `${this.apiUrl}/repos/${full}/issues/${issue.number}/labels{/name}`,
      comments_url: `${this.apiUrl}/repos/${full}/issues/${issue.number}/comments`,
      events_url: `${this.apiUrl}/repos/${full}/issues/${issue.number}/events`,
      locked: false,
      active_lock_reason: null,
      assignee: null,
      milestone: null,
      reactions: this.reactions(
        `${this.apiUrl}/repos/${full}/issues/${issue.number}`,
        `issue:${full}#${issue.number}`,
      ),
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
