/**
 * Every TanStack Query key of the web app, in one place, so invalidations and queries cannot drift
 * apart. A key's first element is its domain; invalidating a prefix (e.g. `queryKeys.agent(id)`)
 * refreshes everything under it.
 */
export const queryKeys = {
  config: ['config'] as const,
  currentUser: ['users', 'me'] as const,
  models: ['models'] as const,

  agentLists: ['agents', 'list'] as const,
  statusCounts: ['agents', 'status-counts'] as const,
  repositoryBranches: (repository: string) => ['repositories', repository.toLowerCase(), 'branches'] as const,
  /** Under the agent lists' prefix: a new supervisor shows up when the lists refresh. */
  supervisors: (repository: string) => ['agents', 'list', 'supervisors', repository.toLowerCase()] as const,

  agent: (agentId: string) => ['agent', agentId] as const,
  agentMetadata: (agentId: string) => ['agent', agentId, 'metadata'] as const,
  agentLatestTimestamp: (agentId: string) => ['agent', agentId, 'latest-timestamp'] as const,
  agentScripts: (agentId: string, branch: string | null) => ['agent', agentId, 'scripts', branch] as const,
  agentFile: (agentId: string, repository: string, path: string, ref: string | null) =>
    ['agent', agentId, 'file', repository, path, ref] as const,
  agentLog: (agentId: string, logId: string) => ['agent', agentId, 'log', logId] as const,
  agentBranch: (agentId: string, sourceId: string | null) => ['agent', agentId, 'branch', sourceId] as const,
  agentDiff: (agentId: string, sourceId: string | null, from: string | null, to: string | null) =>
    ['agent', agentId, 'diff', sourceId, from, to] as const,
  agentPreview: (agentId: string, port: number) => ['agent', agentId, 'preview', port] as const,

  blog: ['blog'] as const,
  blogPosts: (admin: boolean) => ['blog', admin ? 'admin' : 'public'] as const,
  blogPost: (id: string) => ['blog', 'post', id] as const,

  cliToken: (userId: string | undefined) => ['cli-token', userId] as const,

  // The repository page. Full names are lower-cased: the code host treats `Acme/WebApp` and
  // `acme/webapp` alike. Kept apart from `repositoryBranches`'s prefix so its invalidations stay narrow.
  repository: (fullName: string) => ['repository', fullName.toLowerCase()] as const,
  repositoryAccess: (fullName: string) => ['repository', fullName.toLowerCase(), 'access'] as const,
  repositorySettings: (fullName: string) => ['repository', fullName.toLowerCase(), 'settings'] as const,
  repositorySecrets: (fullName: string) => ['repository', fullName.toLowerCase(), 'secrets'] as const,
  repositoryLogs: (fullName: string, page: number) =>
    ['repository', fullName.toLowerCase(), 'logs', page] as const,
  scriptLog: (logId: string) => ['script-log', logId] as const,

  repositoryScripts: (fullName: string) => ['repository', fullName.toLowerCase(), 'scripts'] as const,

  // The public party agent (/party) and its read-only token for anonymous visitors.
  party: ['party'] as const,
  /** Per agent: a token names one party agent, so a fresh party agent needs a fresh token. */
  partyToken: (agentId: string) => ['party', 'token', agentId] as const,

  // The admin area.
  adminInstallationsAll: ['admin', 'installations'] as const,
  adminInstallations: (query: object) => ['admin', 'installations', query] as const,
  adminTasksAll: ['admin', 'tasks'] as const,
  adminTasks: (party: boolean, query: object) => ['admin', 'tasks', party ? 'party' : 'all', query] as const,
  adminDashboard: (days: number) => ['admin', 'dashboard', days] as const,
  adminUsers: (query: object) => ['admin', 'users', query] as const,
  adminLeadInfo: (userId: string) => ['admin', 'lead-info', userId] as const,
  adminUserSessions: (userId: string) => ['admin', 'user-sessions', userId] as const,
  adminRepositories: (query: object) => ['admin', 'repositories', query] as const,

  // Settings and billing.
  userSettings: ['settings', 'user'] as const,
  usersTable: (installationId: number | null) => ['settings', 'users-table', installationId] as const,
  credits: (installationId: number | null) => ['billing', 'credits', installationId] as const,
  paymentMethods: (installationId: number) => ['billing', 'payment-methods', installationId] as const,
  autoFill: (installationId: number) => ['billing', 'auto-fill', installationId] as const,
  receiptEmail: (installationId: number) => ['billing', 'receipt-email', installationId] as const,
  transactionsAll: ['billing', 'transactions'] as const,
  transactions: (request: object) => ['billing', 'transactions', request] as const,
};
