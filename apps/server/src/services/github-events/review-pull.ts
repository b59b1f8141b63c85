import { and, eq, isNull } from 'drizzle-orm';
import { appendItem, REVIEW_PURPOSE, subscribeNumber } from '@tandem/agent';
import { agents, agentSources, repositories } from '@tandem/db';
import type { ThreadWebhookPayload } from '@tandem/shared';
import { AppError } from '../../errors/app-error.js';
import { requireCredits } from '../agents/agent-access.js';
import { insertAgent } from '../agents/insert-agent.js';
import { resolveAgentModels } from '../repositories/resolve-agent-models.js';
import { ensureCodeHostUser } from './github-user.js';
import type { GitHubEventDeps } from './handle-thread-event.js';
import { isBotAccount } from './mentions.js';

export interface ReviewRepo {
  id: string;
  fullName: string;
  installationId: number;
  defaultModel: string | null;
  defaultReviewModel: string | null;
}

export interface PullToReview {
  number: number;
  title: string;
  body: string;
  headRef: string;
  baseRef: string;
  htmlUrl: string | null;
}

/** A person's words as the first message of a review: the pull request to read. */
const reviewRequest = (pull: PullToReview) =>
  [`Review pull request #${pull.number}: ${pull.title}`, pull.body.trim()].filter(Boolean).join('\n\n');

/** The open reviewer of a pull request, if one follows it. */
async function reviewerOf(deps: GitHubEventDeps, repositoryId: string, number: number) {
  const [row] = await deps.db
    .select({ agentId: agents.id })
    .from(agentSources)
    .innerJoin(agents, eq(agents.id, agentSources.agentId))
    .where(
      and(
        eq(agentSources.repositoryId, repositoryId),
        eq(agentSources.number, number),
        eq(agents.purpose, REVIEW_PURPOSE),
        eq(agents.archived, false),
      ),
    )
    .limit(1);
  return row?.agentId;
}

/**
 * Starts a reviewer on a pull request: an agent on the repository's review model, on the pull
 * request's own branch, with reading tools and submit_review only (it cannot push), following
 * the pull request so replies reach it. Charged to the installation like any agent.
 */
export async function startReview(
  deps: GitHubEventDeps,
  repo: ReviewRepo,
  pull: PullToReview,
  creatorId: string,
): Promise<string | undefined> {
  try {
    await requireCredits(deps.db, repo.installationId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    deps.log.info({ repository: repo.fullName, number: pull.number }, 'review skipped: out of credits');
    return undefined;
  }
  const chosen = resolveAgentModels({}, repo, (key) => deps.models.selectable(key, false));
  // The review model when it can run here, else the agent model.
  const key =
    chosen.reviewModel && deps.models.selectable(chosen.reviewModel, false)
      ? chosen.reviewModel
      : chosen.model;
  const { agentId } = await insertAgent(deps.db, {
    repositoryId: repo.id,
    installationId: repo.installationId,
    creatorId,
    model: deps.models.resolve(key, false),
    reviewModel: null,
    purpose: REVIEW_PURPOSE,
    branch: pull.headRef,
    baseBranch: pull.baseRef,
    firstMessage: {
      actionType: 'pull_request',
      data: {
        message: reviewRequest(pull),
        username: 'Tandem',
        repository_name: repo.fullName,
        number: pull.number,
        html_url: pull.htmlUrl,
      },
    },
  });
  await subscribeNumber(
    deps.db,
    { agentId, repositoryId: repo.id },
    { type: 'branch', number: pull.number, branch: pull.headRef, state: 'open' },
  );
  deps.runner.enqueue(agentId);
  return agentId;
}

/**
 * Always-review: a pull request opened or marked ready by a person with write access (not a
 * draft, not a fork's, not a bot's) gets a reviewer; a push to it asks the reviewer to review the
 * new commits only.
 */
export async function onPullRequestForReview(
  deps: GitHubEventDeps & { canWrite: (repo: ReviewRepo, login: string) => Promise<boolean> },
  payload: ThreadWebhookPayload,
): Promise<string | undefined> {
  const pr = payload.pull_request;
  const action = payload.action ?? '';
  if (!pr || !payload.repository || !payload.installation || pr.state !== 'open') return undefined;
  if (!['opened', 'ready_for_review', 'synchronize'].includes(action) || pr.draft) return undefined;
  if (!pr.user || isBotAccount(pr.user, deps.appSlug)) return undefined;
  // A fork's branch is not in this repository: its sandbox could not check it out.
  if (!pr.head || !pr.base || pr.head.repo?.id !== payload.repository.id) return undefined;
  const [repo] = await deps.db
    .select({
      id: repositories.id,
      fullName: repositories.fullName,
      installationId: repositories.installationId,
      defaultModel: repositories.defaultModel,
      defaultReviewModel: repositories.defaultReviewModel,
      alwaysReview: repositories.alwaysReview,
    })
    .from(repositories)
    .where(and(eq(repositories.githubId, payload.repository.id), isNull(repositories.removedAt)));
  if (!repo || !repo.alwaysReview || repo.installationId !== payload.installation.id) return undefined;

  const existing = await reviewerOf(deps, repo.id, pr.number);
  if (action === 'synchronize') {
    if (!existing || !payload.before || !payload.after) return undefined;
    const range = `${payload.before.slice(0, 12)}..${payload.after.slice(0, 12)}`;
    const [reviewer] = await deps.db.select().from(agents).where(eq(agents.id, existing));
    await appendItem(deps.db, existing, {
      itemType: 'message',
      actionType: 'pull_request',
      userId: reviewer!.creatorId,
      dedupeKey: `review-push:${pr.number}:${payload.after}`,
      data: {
        message: `New commits were pushed to #${pr.number} (${range}). Run git_fetch, then git merge --ff-only origin/${pr.head.ref}, and review only these commits (git diff ${range}) with one new review.`,
        username: 'Tandem',
        repository_name: repo.fullName,
        number: pr.number,
      },
    });
    await deps.db.update(agents).set({ status: 'pending' }).where(eq(agents.id, existing));
    deps.runner.enqueue(existing);
    return existing;
  }
  if (existing) return undefined;
  if (!(await deps.canWrite(repo, pr.user.login))) {
    deps.log.info(
      { repository: repo.fullName, number: pr.number, login: pr.user.login },
      'always-review skipped: the author has no write access (a writer can tag the bot to review)',
    );
    return undefined;
  }
  const user = await ensureCodeHostUser(deps.db, {
    id: pr.user.id,
    login: pr.user.login,
    avatarUrl: pr.user.avatar_url ?? null,
  });
  return startReview(
    deps,
    repo,
    {
      number: pr.number,
      title: pr.title ?? '',
      body: pr.body ?? '',
      headRef: pr.head.ref,
      baseRef: pr.base.ref,
      htmlUrl: pr.html_url ?? null,
    },
    user.id,
  );
}
