import { createHash } from 'node:crypto';
import { eq, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { setNumberState } from '@tandem/agent';
import { repositories, webhookDeliveries, type Db } from '@tandem/db';
import type { ThreadWebhookPayload } from '@tandem/shared';
import { handleThreadEvent, type GitHubEventDeps } from './github-events/handle-thread-event.js';
import { recordNumberLifecycle } from './github-events/number-lifecycle.js';
import { threadEvent } from './github-events/thread-event.js';
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
export async function handleWebhookEvent(
  deps: Omit<GitHubEventDeps, 'log'>,
  delivery: { event: string; id: string },
  payload: unknown,
  log: FastifyBaseLogger,
) {
  const { db } = deps;
  const { event } = delivery;
  const body = payload as InstallationPayload;
  switch (event) {
    case 'installation':
      await onInstallation(db, body);
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
      const thread = threadEvent(event, payload as ThreadWebhookPayload);
      if (thread) await handleThreadEvent({ ...deps, log }, thread);
      break;
    }
    default:
      log.debug({ event, action: body.action }, 'webhook recorded, no handler');
  }
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

async function onInstallation(db: Db, payload: InstallationPayload) {
  const installation = toInstallation(payload);
  if (!installation) return;
  if (payload.action === 'deleted') {
    await markInstallationDeleted(db, installation.id);
    return;
  }
  await upsertInstallation(db, installation);
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

export async function markDeliveryProcessed(db: Db, deliveryId: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ processedAt: new Date() })
    .where(eq(webhookDeliveries.deliveryId, deliveryId));
}

/**
 * How old a delivery we can date may be. GitHub lets an App's owner redeliver deliveries of the
 * past 3 days, so those are still accepted; anything older is refused as a possible replay.
 */
export const WEBHOOK_MAX_AGE_MS = 72 * 60 * 60 * 1000;
/**
 * How long delivery rows are kept: the age window plus a day, so a replay of a dated delivery is
 * either still in the table (a duplicate) or older than the window (refused).
 */
export const DELIVERY_RETENTION_MS = WEBHOOK_MAX_AGE_MS + 24 * 60 * 60 * 1000;

/** Event / action pairs whose payload carries the moment of the event in a signed field. */
const DATED: Record<string, { actions: string[]; fields: [object: string, field: string][] }> = {
  issues: {
    actions: ['opened', 'closed', 'reopened'],
    fields: [
      ['issue', 'updated_at'],
      ['issue', 'closed_at'],
      ['issue', 'created_at'],
    ],
  },
  pull_request: {
    actions: ['opened', 'closed', 'reopened'],
    fields: [
      ['pull_request', 'updated_at'],
      ['pull_request', 'closed_at'],
      ['pull_request', 'created_at'],
    ],
  },
  issue_comment: { actions: ['created'], fields: [['comment', 'created_at']] },
  pull_request_review_comment: { actions: ['created'], fields: [['comment', 'created_at']] },
  pull_request_review: { actions: ['submitted'], fields: [['review', 'submitted_at']] },
};

/**
 * When the event happened, from the signed body, for the actions that set one of its timestamps
 * (opening, closing or reopening sets updated_at; a new comment its created_at). Undefined for
 * every other delivery: GitHub signs no timestamp, and e.g. an installation's updated_at need
 * not move when a repository is added, so those cannot be dated.
 */
export function deliveryTime(event: string, payload: unknown): Date | undefined {
  const rule = DATED[event];
  const body = payload as Record<string, unknown> | null;
  if (!rule || !body || !rule.actions.includes(String(body.action))) return undefined;
  let newest: number | undefined;
  for (const [object, field] of rule.fields) {
    const value = (body[object] as Record<string, unknown> | undefined)?.[field];
    const ms =
      typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value * 1000 : Number.NaN;
    if (Number.isFinite(ms)) newest = Math.max(newest ?? ms, ms);
  }
  return newest === undefined ? undefined : new Date(newest);
}

/**
 * The key a dated delivery's signed body is remembered by. X-GitHub-Delivery is not covered by
 * the signature, so a replay could come with a fresh id; its body cannot change.
 */
export function payloadKey(raw: string): string {
  return `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

/** Drops delivery rows past the retention; the received_at index keeps this cheap. */
export async function pruneDeliveries(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.receivedAt, new Date(now.getTime() - DELIVERY_RETENTION_MS)));
}

/**
 * Records a delivery under each of its keys (header id, signed-body key); false when any key was
 * seen before (a replay), in which case nothing of this delivery stays recorded.
 */
export async function recordDelivery(
  db: Db,
  keys: string[],
  row: { event: string; action: string | null; installationId: number | null; requestId: string },
): Promise<boolean> {
  for (const [index, key] of keys.entries()) {
    const inserted = await db
      .insert(webhookDeliveries)
      .values({ deliveryId: key, ...row })
      .onConflictDoNothing()
      .returning({ deliveryId: webhookDeliveries.deliveryId });
    if (!inserted.length) {
      await forgetDeliveries(db, keys.slice(0, index));
      return false;
    }
  }
  return true;
}

/**
 * Forgets a delivery whose processing failed (its header id and payload key), so the sender's
 * redelivery is processed again.
 */
export async function forgetDeliveries(db: Db, keys: string[]): Promise<void> {
  await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.deliveryId, keys));
}
