import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { setNumberState } from '@tandem/agent';
import { installations, repositories, type Db } from '@tandem/db';
import type {
  CheckSuiteWebhookPayload,
  PushWebhookPayload,
  ThreadWebhookPayload,
  WorkflowRunWebhookPayload,
} from '@tandem/shared';
import { canWrite, handleThreadEvent, type GitHubEventDeps } from './github-events/handle-thread-event.js';
import { onPullRequestForReview } from './github-events/review-pull.js';
import { recordNumberLifecycle } from './github-events/number-lifecycle.js';
import { threadEvent } from './github-events/thread-event.js';
import { applyWorkflowRun, checkSuiteAsRun } from './github-events/workflow-run.js';
import { wakeForFailedRun } from './github-events/auto-fix.js';
import { wakeForConflicts } from './github-events/merge-conflicts.js';
import { setInstallationSuspended } from './github-events/installation-suspension.js';
import {
  grantInstallerAdmin,
  markInstallationDeleted,
  markRepositoriesRemoved,
  upsertInstallation,
  upsertRepositories,
  type CodeHostInstallation,
  type CodeHostRepository,
} from './code-host-sync.js';

interface WebhookAccount {
  id: number;
  login: string;
  type: string;
  avatar_url?: string | null;
}
interface WebhookRepo {
  id: number;
  full_name: string;
  private?: boolean;
  default_branch?: string;
}
interface InstallationPayload {
  action?: string;
  installation?: { id: number; account?: WebhookAccount | null };
  repositories?: WebhookRepo[];
  repositories_added?: WebhookRepo[];
  repositories_removed?: WebhookRepo[];
  sender?: { id: number; login: string };
}

/** Keeps subscribed issues' and pull requests' state current, and shows the change in their feeds. */
async function onNumberState(db: Db, event: string, payload: ThreadWebhookPayload, deliveryKey: string) {
  if (!['closed', 'reopened', 'opened'].includes(payload.action ?? '') || !payload.repository) return;
  const [repo] = await db
    .select({ id: repositories.id, fullName: repositories.fullName })
    .from(repositories)
    .where(eq(repositories.githubId, payload.repository.id));
  if (!repo) return;
  let change: Parameters<typeof recordNumberLifecycle>[2] | undefined;
  if (event === 'pull_request' && payload.pull_request) {
    const pr = payload.pull_request;
    const state = pr.merged ? 'merged' : pr.state === 'closed' ? 'closed' : 'open';
    await setNumberState(db, repo.id, pr.number, state, pr.head?.ref);
    if (payload.action !== 'opened')
      change = {
        number: pr.number,
        action: state === 'open' ? 'reopened' : state,
        type: 'pull_request',
        title: pr.title,
        htmlUrl: pr.html_url,
        key: deliveryKey,
      };
  } else if (payload.issue) {
    const issue = payload.issue;
    await setNumberState(db, repo.id, issue.number, issue.state === 'closed' ? 'closed' : 'open');
    if (payload.action !== 'opened')
      change = {
        number: issue.number,
        action: issue.state === 'closed' ? 'closed' : 'reopened',
        type: 'issue',
        title: issue.title,
        htmlUrl: issue.html_url,
        key: deliveryKey,
      };
  }
  if (change) await recordNumberLifecycle(db, repo, change);
}

/**
 * Applies one verified, first-seen delivery: installations, the state of followed issues and
 * pull requests, and people's words on them (comments, reviews, new issues and pull requests),
 * which wake or start agents. Other events are only recorded.
 */
/** Events with a handler: only these are queued with their payload; others are only recorded. */
export const HANDLED_WEBHOOK_EVENTS = new Set([
  'installation',
  'installation_repositories',
  'pull_request',
  'issues',
  'issue_comment',
  'pull_request_review',
  'workflow_run',
  'check_suite',
  'push',
]);

export async function handleWebhookEvent(
  deps: Omit<GitHubEventDeps, 'log'>,
  delivery: { event: string; id: string; attempt?: number },
  payload: unknown,
  log: FastifyBaseLogger,
) {
  const { db } = deps;
  const { event } = delivery;
  const body = payload as InstallationPayload;
  switch (event) {
    case 'installation':
      await onInstallation(deps, body, log);
      break;
    case 'installation_repositories':
      await onInstallationRepositories(db, body);
      break;
    case 'pull_request':
    case 'issues':
    case 'issue_comment':
    case 'pull_request_review': {
      if (event === 'pull_request' || event === 'issues')
        await onNumberState(db, event, payload as ThreadWebhookPayload, delivery.id);

      if (await startsNothing(deps, log, event, body)) break;
      const thread = threadEvent(event, payload as ThreadWebhookPayload);
      if (thread) await handleThreadEvent({ ...deps, log }, thread);
      // After the words: a tag asking for a review has started the reviewer already, and the
      // pull request's text must not reach a reviewer started here as a second message.
      if (event === 'pull_request')
        await onPullRequestForReview(
          { ...deps, log, canWrite: (repo, login) => canWrite(deps, repo, login) },
          payload as ThreadWebhookPayload,
        );
      break;
    }
    case 'workflow_run':
    case 'check_suite': {
      const runPayload =
        event === 'check_suite'
          ? checkSuiteAsRun(payload as CheckSuiteWebhookPayload)
          : (payload as WorkflowRunWebhookPayload);
      if (!runPayload) break;
      // Tried again twice at most (the queue's first delays) while a commit may be on its way.
      const applied = await applyWorkflowRun(db, runPayload, { mayRetry: (delivery.attempt ?? 1) <= 2 });
      if (
        applied?.status === 'failure' &&
        runPayload.action === 'completed' &&
        !(await startsNothing(deps, log, event, body))
      )
        await wakeForFailedRun({ ...deps, log }, runPayload, applied.agentIds);
      break;
    }
    case 'push':
      if (await startsNothing(deps, log, event, body)) break;
      await wakeForConflicts({ ...deps, log }, payload as PushWebhookPayload);
      break;
    default:
      log.debug({ event, action: body.action }, 'webhook recorded, no handler');
  }
}

/**
 * Events that are recorded and shown but wake and start nothing: all of them in sunset mode after
 * its last day, and those of an installation a product admin banned.
 */
async function startsNothing(
  deps: Pick<GitHubEventDeps, 'sunset' | 'db'>,
  log: FastifyBaseLogger,
  event: string,
  body: InstallationPayload,
): Promise<boolean> {
  if (deps.sunset?.closed) {
    log.info({ event }, 'sunset: the event starts and wakes no agent');
    return true;
  }
  const id = body.installation?.id;
  if (typeof id !== 'number') return false;
  const [row] = await deps.db
    .select({ bannedAt: installations.bannedAt, suspendedAt: installations.suspendedAt })
    .from(installations)
    .where(eq(installations.id, id));
  if (!row?.bannedAt && !row?.suspendedAt) return false;
  log.info(
    { event, installationId: id, banned: Boolean(row.bannedAt), suspended: Boolean(row.suspendedAt) },
    'banned or suspended installation: the event starts and wakes no agent',
  );
  return true;
}

function toInstallation(payload: InstallationPayload): CodeHostInstallation | undefined {
  const inst = payload.installation;
  const account = inst?.account;
  if (!inst || !account) return undefined;
  return {
    id: inst.id,
    account: {
      id: account.id,
      login: account.login,
      type: account.type === 'Organization' ? 'Organization' : 'User',
      avatarUrl: account.avatar_url ?? null,
    },
  };
}

function toRepos(repos: WebhookRepo[] | undefined): CodeHostRepository[] {
  return (repos ?? []).map((r) => ({
    id: r.id,
    fullName: r.full_name,
    private: r.private ?? true,
    defaultBranch: r.default_branch ?? 'main',
  }));
}

async function onInstallation(
  deps: Pick<GitHubEventDeps, 'db' | 'runner'>,
  payload: InstallationPayload,
  log: FastifyBaseLogger,
) {
  const { db } = deps;
  const installation = toInstallation(payload);
  if (!installation) return;
  if (payload.action === 'deleted') {
    await markInstallationDeleted(db, installation.id);
    return;
  }
  await upsertInstallation(db, installation);
  if (payload.action === 'suspend' || payload.action === 'unsuspend') {
    const stopped = await setInstallationSuspended(deps, installation.id, payload.action === 'suspend');
    log.info({ installationId: installation.id, action: payload.action, stopped }, 'installation suspension');
    return;
  }
  await upsertRepositories(db, installation.id, toRepos(payload.repositories));
  // Only the person who installed it is known to be an admin; everyone else syncs at sign-in.
  if (payload.action === 'created' && payload.sender)
    await grantInstallerAdmin(db, installation.id, payload.sender.id);
}

async function onInstallationRepositories(db: Db, payload: InstallationPayload) {
  const installation = toInstallation(payload);
  if (!installation) return;
  await upsertInstallation(db, installation);
  await upsertRepositories(db, installation.id, toRepos(payload.repositories_added));
  await markRepositoriesRemoved(
    db,
    (payload.repositories_removed ?? []).map((r) => r.id),
  );
}
