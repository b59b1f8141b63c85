/** The local code host's whole state: small enough to live in one JSON file. */
export interface HostUser {
  id: number;
  login: string;
  name: string;
  email: string;
}

export interface HostOrg {
  id: number;
  login: string;
  /** login → role */
  members: Record<string, 'admin' | 'member'>;
}

export interface HostInstallation {
  id: number;
  /** The account (user or organisation) login the App is installed on. */
  account: string;
  createdAt: string;
}

export interface HostRepo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  isTemplate: boolean;
  description: string;
  defaultBranch: string;
  createdAt: string;
}

export interface HostComment {
  id: number;
  author: string;
  body: string;
  createdAt: string;
}

/** A reaction (👀, +1…) by one account on an issue, a comment or a review comment. */
export interface HostReaction {
  id: number;
  /** `issue:{repo}#{number}`, `comment:{id}` or `review_comment:{id}`. */
  subject: string;
  content: string;
  author: string;
  createdAt: string;
}

export interface HostIssue {
  /** Issues and pull requests share one number sequence per repository, like GitHub. */
  number: number;
  repo: string;
  title: string;
  body: string;
  author: string;
  state: 'open' | 'closed';
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  comments: HostComment[];
  pull?: HostPull;
}

export interface HostReview {
  id: number;
  author: string;
  body: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED';
  commitId: string;
  submittedAt: string;
}

export interface HostReviewComment {
  id: number;
  author: string;
  body: string;
  path: string;
  line: number | null;
  /** The first line of a multi-line comment. */
  startLine?: number | null;
  /** The review it was submitted with (GitHub gives every review comment one). */
  reviewId?: number;
  side: 'LEFT' | 'RIGHT';
  commitId: string;
  createdAt: string;
}

export interface HostPull {
  head: string;
  base: string;
  draft: boolean;
  merged: boolean;
  mergeCommitSha: string | null;
  mergedAt: string | null;
  /** Who merged it (absent in stores written before it was kept). */
  mergedBy?: string | null;
  reviews: HostReview[];
  reviewComments: HostReviewComment[];
}

export interface HostToken {
  /** SHA-256 of the token: the store never holds a usable credential. */
  hash: string;
  kind: 'user' | 'installation';
  subject: string | number;
  expiresAt: string;
  /** Personal access tokens (created on /settings/tokens) have these; session and OAuth tokens not. */
  personal?: { id: number; name: string; createdAt: string };
}

export interface HostOAuthCode {
  code: string;
  login: string;
  clientId: string;
  redirectUri: string;
  expiresAt: string;
}

export interface HostDelivery {
  id: string;
  event: string;
  action: string | null;
  status: number | null;
  attempts: number;
  deliveredAt: string | null;
  error: string | null;
  createdAt: string;
}

/** A workflow file the local CI has seen in a repository (GitHub numbers workflows per path). */
export interface HostWorkflow {
  id: number;
  repo: string;
  path: string;
  name: string;
  createdAt: string;
}

export type RunStatus = 'queued' | 'in_progress' | 'completed';
export type RunConclusion = 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out' | null;

/** One run of one workflow for one commit and event, in GitHub's terms. */
export interface HostWorkflowRun {
  id: number;
  repo: string;
  workflowId: number;
  name: string;
  path: string;
  headBranch: string;
  headSha: string;
  event: 'push' | 'pull_request';
  status: RunStatus;
  conclusion: RunConclusion;
  runNumber: number;
  /** Who pushed. */
  actor: string;
  /** Open pull requests of the head branch when the run was made (GitHub lists them). */
  pulls: { number: number; id: number; headRef: string; headSha: string; baseRef: string; baseSha: string }[];
  headCommit: { message: string; treeId: string; timestamp: string; authorName: string; authorEmail: string };
  createdAt: string;
  updatedAt: string;
  runStartedAt: string | null;
}

export interface HostJobStep {
  name: string;
  number: number;
  status: RunStatus;
  conclusion: RunConclusion;
  startedAt: string | null;
  completedAt: string | null;
}

export interface HostWorkflowJob {
  id: number;
  runId: number;
  name: string;
  status: RunStatus;
  conclusion: RunConclusion;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  steps: HostJobStep[];
}

export interface HostState {
  nextId: number;
  users: HostUser[];
  orgs: HostOrg[];
  installations: HostInstallation[];
  repos: HostRepo[];
  issues: HostIssue[];
  tokens: HostToken[];
  oauthCodes: HostOAuthCode[];
  deliveries: HostDelivery[];
  /** Absent in stores written before reactions existed. */
  reactions?: HostReaction[];
  /** The local CI's records (absent in stores written before it existed); logs are files. */
  workflows?: HostWorkflow[];
  workflowRuns?: HostWorkflowRun[];
  workflowJobs?: HostWorkflowJob[];
}

export function emptyState(): HostState {
  return {
    nextId: 10_000,
    users: [],
    orgs: [],
    installations: [],
    repos: [],
    issues: [],
    tokens: [],
    oauthCodes: [],
    deliveries: [],
  };
}
