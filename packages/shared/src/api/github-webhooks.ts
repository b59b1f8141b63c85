import { z } from 'zod';
import { cleanText } from './text.js';

/**
 * The parts of code-host webhook payloads the server acts on. A delivery is signed, but the
 * signature only proves who sent it, not that its shape is right (a misbehaving GitHub Enterprise,
 * a replayed old format, a bug in the local code host): the payload is checked like any request
 * body, and a wrong shape is a 422 rather than a crash halfway through an update. Unknown keys
 * are dropped, so only what is used is checked.
 */

/** Code-host ids: positive integers a bigint column (and a JS number) holds exactly. */
const githubId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = z.string().min(1).max(300);

const account = z.object({
  id: githubId,
  login: name,
  type: z.string().max(50),
  avatar_url: z.string().max(2000).nullish(),
});

const repository = z.object({
  id: githubId,
  full_name: name,
  private: z.boolean().optional(),
  default_branch: z.string().max(255).optional(),
});

const installation = z.object({ id: githubId, account: account.nullish() });
const action = z.string().max(100).optional();

const installationPayload = z.object({
  action,
  installation: installation.optional(),
  repositories: z.array(repository).max(10_000).optional(),
  sender: z.object({ id: githubId, login: name }).optional(),
});

const installationRepositoriesPayload = z.object({
  action,
  installation: installation.optional(),
  repositories_added: z.array(repository).max(10_000).optional(),
  repositories_removed: z
    .array(repository.pick({ id: true }))
    .max(10_000)
    .optional(),
});

/** Text a person wrote on the code host: bounded, so a huge body is a 422 rather than a huge row. */
const text = z.string().max(262_144).nullish();
const htmlUrl = z.string().max(2000).optional();
const user = account;

const threadRepository = z.object({ id: githubId, full_name: name.optional() });

const numberPayload = z.object({
  action,
  installation: installation.pick({ id: true }).optional(),
  repository: threadRepository.optional(),
  pull_request: z
    .object({
      number: githubId,
      state: z.string().max(50),
      merged: z.boolean().nullish(),
      draft: z.boolean().nullish(),
      head: z
        .object({
          ref: z.string().max(255),
          sha: z.string().max(64).optional(),
          /** null when the fork it came from was deleted. */
          repo: z.object({ id: githubId }).nullish(),
        })
        .optional(),
      base: z.object({ ref: z.string().max(255) }).optional(),
      title: z.string().max(1024).optional(),
      body: text,
      user: user.optional(),
      html_url: htmlUrl,
    })
    .optional(),
  issue: z
    .object({
      number: githubId,
      state: z.string().max(50),
      title: z.string().max(1024).optional(),
      body: text,
      user: user.optional(),
      html_url: htmlUrl,
      /** Present when the issue is a pull request (issue_comment on a pull request). */
      pull_request: z.object({}).optional(),
    })
    .optional(),
  sender: user.optional(),
  /** pull_request synchronize: the head before and after the push. */
  before: z.string().max(64).optional(),
  after: z.string().max(64).optional(),
});

/** issue_comment: a comment on an issue or a pull request's conversation. */
const issueCommentPayload = numberPayload.extend({
  comment: z.object({ id: githubId, body: text, user: user.optional(), html_url: htmlUrl }).optional(),
});

/** pull_request_review: a submitted review (its inline comments are read from the REST API). */
const reviewPayload = numberPayload.extend({
  review: z
    .object({
      id: githubId,
      body: text,
      state: z.string().max(50).optional(),
      user: user.optional(),
      html_url: htmlUrl,
    })
    .optional(),
});

/** pull_request_review_comment: one inline comment (recorded; reviews carry them to agents). */
const reviewCommentPayload = numberPayload.extend({
  comment: z
    .object({
      id: githubId,
      body: text,
      user: user.optional(),
      html_url: htmlUrl,
      pull_request_review_id: githubId.nullish(),
    })
    .optional(),
});

export type ThreadWebhookPayload = z.infer<typeof numberPayload> & {
  comment?: {
    id: number;
    body?: string | null | undefined;
    user?: z.infer<typeof account>;
    html_url?: string;
  };
  review?: z.infer<typeof reviewPayload>['review'];
};

/** workflow_run: a CI run of a commit, as it is requested, runs and completes. */
const workflowRunPayload = z.object({
  action,
  installation: installation.pick({ id: true }).optional(),
  repository: threadRepository.optional(),
  workflow_run: z.object({
    id: githubId,
    name: z.string().max(1024).nullish(),
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    head_branch: z.string().max(255).nullish(),
    status: z.string().max(50).nullish(),
    conclusion: z.string().max(50).nullish(),
    run_attempt: z.number().int().positive().optional(),
    html_url: htmlUrl,
    pull_requests: z
      .array(z.object({ number: githubId }))
      .max(1000)
      .optional(),
  }),
});
export type WorkflowRunWebhookPayload = z.infer<typeof workflowRunPayload>;

/** check_suite: another CI app's results for a commit (GitHub Actions' come as workflow_run). */
const checkSuitePayload = z.object({
  action,
  installation: installation.pick({ id: true }).optional(),
  repository: threadRepository.optional(),
  check_suite: z.object({
    id: githubId,
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    head_branch: z.string().max(255).nullish(),
    status: z.string().max(50).nullish(),
    conclusion: z.string().max(50).nullish(),
    app: z.object({ slug: z.string().max(200).nullish(), name: z.string().max(300).nullish() }).nullish(),
    pull_requests: z
      .array(z.object({ number: githubId }))
      .max(1000)
      .optional(),
  }),
});
export type CheckSuiteWebhookPayload = z.infer<typeof checkSuitePayload>;

/** push: a branch moved (agents whose pull requests target it check for conflicts). */
const pushPayload = z.object({
  ref: z.string().max(300),
  after: z.string().regex(/^[0-9a-f]{40}$/),
  deleted: z.boolean().optional(),
  installation: installation.pick({ id: true }).optional(),
  repository: threadRepository.optional(),
});
export type PushWebhookPayload = z.infer<typeof pushPayload>;

/** Events the server does not act on: only what the delivery log records. */
// Both keys optional: ping and push deliveries carry no action, some events no installation.
const otherPayload = z
  .object({ action: z.unknown().optional(), installation: z.unknown().optional() })
  .transform((p) => ({
    action: typeof p.action === 'string' ? cleanText(p.action).slice(0, 100) : undefined,
    installation:
      typeof p.installation === 'object' &&
      p.installation !== null &&
      githubId.safeParse((p.installation as { id?: unknown }).id).success
        ? { id: (p.installation as { id: number }).id }
        : undefined,
  }));

/** Events whose payload the schema fully describes (the handlers get the checked payload). */
export const CHECKED_WEBHOOK_EVENTS: ReadonlySet<string> = new Set([
  'installation',
  'installation_repositories',
  'pull_request',
  'issues',
  'issue_comment',
  'pull_request_review',
  'pull_request_review_comment',
  'workflow_run',
  'check_suite',
  'push',
]);

/** The schema a delivery of `event` must match. */
export function webhookPayloadSchema(event: string): z.ZodType<{
  action?: string | undefined;
  installation?: { id: number } | undefined;
}> {
  switch (event) {
    case 'installation':
      return installationPayload;
    case 'installation_repositories':
      return installationRepositoriesPayload;
    case 'pull_request':
    case 'issues':
      return numberPayload;
    case 'issue_comment':
      return issueCommentPayload;
    case 'pull_request_review':
      return reviewPayload;
    case 'pull_request_review_comment':
      return reviewCommentPayload;
    case 'workflow_run':
      return workflowRunPayload;
    case 'push':
      return pushPayload;
    case 'check_suite':
      return checkSuitePayload;
    default:
      return otherPayload;
  }
}
