import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { setNumberState } from '@tandem/agent';
import { repositories, webhookDeliveries, type Db } from '@tandem/db';
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

interface NumberPayload {
  action?: string;
  repository?: { id: number };
  pull_request?: { number: number; state: string; merged?: boolean | null; head?: { ref: string } };
  issue?: { number: number; state: string };
}

/** Keeps subscribed issues' and pull requests' state (open, closed, merged) current. */
async function onNumberState(db: Db, event: string, payload: NumberPayload) {
  if (!['closed', 'reopened', 'opened'].includes(payload.action ?? '') || !payload.repository) return;
  const [repo] = await db
    .select({ id: repositories.id })
    .from(repositories)
    .where(eq(repositories.githubId, payload.repository.id));
  if (!repo) return;
  if (event === 'pull_request' && payload.pull_request) {
    const pr = payload.pull_request;
    const state = pr.merged ? 'merged' : pr.state === 'closed' ? 'closed' : 'open';
    await setNumberState(db, repo.id, pr.number, state, pr.head?.ref);
  } else if (payload.issue) {
    await setNumberState(
      db,
      repo.id,
      payload.issue.number,
      payload.issue.state === 'closed' ? 'closed' : 'open',
    );
  }
}

/** Applies one verified, first-seen delivery. Events the product does not act on yet are only recorded. */
export async function handleWebhookEvent(db: Db, event: string, payload: unknown, log: FastifyBaseLogger) {
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
      await onNumberState(db, event, payload as NumberPayload);
      break;
    default:
      log.debug({ event, action: body.action }, 'webhook recorded, no handler yet');
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

/** Forgets a delivery whose processing failed, so the sender's redelivery is processed again. */
export async function forgetDelivery(db: Db, deliveryId: string): Promise<void> {
  await db.delete(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, deliveryId));
}
