import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { appendItem, newAgentStart, subscribeNumber } from '@tandem/agent';
import { agents, agentSources, repositories, type Db } from '@tandem/db';
import type { AgentRunner } from '@tandem/agent';
import type { CodeHostGateway } from '../../github/gateway.js';
import { AppError } from '../../errors/app-error.js';
import { requireCredits } from '../agents/agent-access.js';
import { insertAgent } from '../agents/insert-agent.js';
import { resolveAgentModels } from '../repositories/resolve-agent-models.js';
import { ensureCodeHostUser } from './github-user.js';
import { isBotAccount, mentionsBot } from './mentions.js';
import { messageItem, type ReviewCommentData } from './message-item.js';
import { startReview } from './review-pull.js';
import type { ThreadEvent } from './thread-event.js';
import type { SunsetGate } from '../sunset-gate.js';

/** What the GitHub event handlers need from the rest of the server. */
export interface GitHubEventDeps {
  db: Db;
  gateway: Pick<CodeHostGateway, 'repositoryPermission' | 'installationClient'>;
  runner: Pick<AgentRunner, 'enqueue' | 'interrupt'>;
  models: {
    resolve(key: string | null | undefined, admin: boolean): { key: string; defaultLimit: number };
    selectable(key: string, admin: boolean): boolean;
  };
  /** The App's slug: the bot is `@{slug}`, its account `{slug}[bot]`. */
  appSlug: string;
  /** Tandem's own address, for links in the bot's notices (none when unknown). */
  publicUrl: string | undefined;
  log: FastifyBaseLogger;
  /** Sunset mode: once closed, the code host's events start and wake no agent. */
  sunset?: Pick<SunsetGate, 'closed'>;
}

interface Repo {
  id: string;
  fullName: string;
  installationId: number;
  defaultBranch: string;
  defaultModel: string | null;
  defaultReviewModel: string | null;
  alwaysAsk: boolean;
}

/**
 * A person wrote on an issue or pull request (a comment, a review, a new issue or pull request).
 * Agents subscribed to it get the words as a message and wake (every comment, or only tagged ones,
 * per subscription); without a subscribed agent, a tag (or always-ask on a new issue) starts one.
 * Only people with write access to the repository make work happen; the bot's own words and
 * other bots' never do.
 */
export async function handleThreadEvent(deps: GitHubEventDeps, event: ThreadEvent): Promise<void> {
  const { db, appSlug } = deps;
  if (isBotAccount(event.author, appSlug)) return;
  const [repo] = await db
    .select({
      id: repositories.id,
      fullName: repositories.fullName,
      installationId: repositories.installationId,
      defaultBranch: repositories.defaultBranch,
      defaultModel: repositories.defaultModel,
      defaultReviewModel: repositories.defaultReviewModel,
      alwaysAsk: repositories.alwaysAsk,
    })
    .from(repositories)
    .where(and(eq(repositories.githubId, event.repoGithubId), isNull(repositories.removedAt)));
  if (!repo || repo.installationId !== event.installationId) return;

  const reviewComments = event.reviewId !== undefined ? await readReviewComments(deps, repo, event) : [];
  // An approval without words or comments says nothing to act on.
  if (!event.body.trim() && !reviewComments.length) return;
  const tagged = mentionsBot(event.body, appSlug) || reviewComments.some((c) => mentionsBot(c.body, appSlug));

  const subscribed = await db
    .select({ agentId: agents.id, behavior: agentSources.behavior })
    .from(agentSources)
    .innerJoin(agents, eq(agents.id, agentSources.agentId))
    .where(
      and(
        eq(agentSources.repositoryId, repo.id),
        eq(agentSources.number, event.number),
        eq(agentSources.state, 'open'),
        eq(agents.archived, false),
      ),
    );
  const woken = [
    ...new Set(subscribed.filter((s) => tagged || s.behavior === 'always').map((s) => s.agentId)),
  ];
  const start = subscribed.length === 0 && (tagged || (event.newIssue && repo.alwaysAsk));
  if (!woken.length && !start) return;

  if (!(await canWrite(deps, repo, event.author.login))) {
    deps.log.info(
      { repository: repo.fullName, number: event.number, login: event.author.login },
      'ignored a code-host comment: its author has no write access',
    );
    return;
  }
  const user = await ensureCodeHostUser(db, event.author);
  const message = messageItem(event, repo.fullName, reviewComments);
  // A redelivery (after a failure half-way) finds the message and does not add it twice.
  const key = `github:${event.kind}:${event.reactTo ? JSON.stringify(event.reactTo) : `review-${event.reviewId}`}`;

  for (const agentId of woken) {
    await appendItem(db, agentId, {
      itemType: 'message',
      actionType: message.actionType,
      userId: user.id,
      dedupeKey: key,
      data: message.data,
    });
    await db.update(agents).set({ status: 'pending' }).where(eq(agents.id, agentId));
    deps.runner.enqueue(agentId);
  }
  if (start && event.isPull && asksForReview(event.body))
    await startReviewFromTag(deps, repo, event.number, user.id);
  else if (start) await startAgent(deps, repo, event, user.id, message);
  await acknowledge(deps, repo, event);
}

export async function canWrite(
  deps: Pick<GitHubEventDeps, 'gateway'>,
  repo: Pick<Repo, 'fullName' | 'installationId'>,
  login: string,
): Promise<boolean> {
  const [owner = '', name = ''] = repo.fullName.split('/');
  const permission = await deps.gateway.repositoryPermission(repo.installationId, { owner, name }, login);
  return permission === 'admin' || permission === 'write';
}

/** "@tandem review this", "@tandem please review": a review, not work on the branch. */
function asksForReview(body: string): boolean {
  return /\breview\b/i.test(body);
}

/** A writer tagged the bot to review a pull request: one reviewer on it, as always-review starts. */
async function startReviewFromTag(deps: GitHubEventDeps, repo: Repo, number: number, creatorId: string) {
  const [owner = '', name = ''] = repo.fullName.split('/');
  const { data: pr } = await deps.gateway
    .installationClient(repo.installationId)
    .rest.pulls.get({ owner, repo: name, pull_number: number });
  await startReview(
    deps,
    repo,
    {
      number,
      title: pr.title,
      body: pr.body ?? '',
      headRef: pr.head.ref,
      baseRef: pr.base.ref,
      htmlUrl: pr.html_url,
    },
    creatorId,
  );
}

async function startAgent(
  deps: GitHubEventDeps,
  repo: Repo,
  event: ThreadEvent,
  creatorId: string,
  message: ReturnType<typeof messageItem>,
): Promise<void> {
  try {
    await requireCredits(deps.db, repo.installationId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const link = deps.publicUrl ? ` Buy more at ${deps.publicUrl}/settings#billing.` : '';
    await comment(deps, repo, event.number, `@${event.author.login} ${error.message}${link}`);
    return;
  }
  const chosen = resolveAgentModels({}, repo, (key) => deps.models.selectable(key, false));
  const { agentId } = await insertAgent(deps.db, {
    repositoryId: repo.id,
    installationId: repo.installationId,
    creatorId,
    model: deps.models.resolve(chosen.model, false),
    reviewModel: chosen.reviewModel,
    firstMessage: { actionType: message.actionType, data: message.data },
  });
  await subscribeNumber(
    deps.db,
    { agentId, repositoryId: repo.id },
    event.isPull
      ? {
          type: 'branch',
          number: event.number,
          state: 'open',
          ...(event.headRef ? { branch: event.headRef } : {}),
        }
      : { type: 'issue', number: event.number, state: 'open' },
  );
  deps.runner.enqueue(agentId, newAgentStart(repo, null));
}

/** Reads a review's inline comments (GitHub sends them as separate events; the review carries them). */
async function readReviewComments(
  deps: GitHubEventDeps,
  repo: Repo,
  event: ThreadEvent,
): Promise<ReviewCommentData[]> {
  const [owner = '', name = ''] = repo.fullName.split('/');
  const client = deps.gateway.installationClient(repo.installationId);
  const { data } = await client.rest.pulls.listCommentsForReview({
    owner,
    repo: name,
    pull_number: event.number,
    review_id: event.reviewId!,
    per_page: 100,
  });
  return data.map((c) => ({
    id: c.id,
    path: c.path,
    body: c.body,
    line: c.line ?? null,
    start_line: c.start_line ?? null,
    side: c.side === 'LEFT' ? 'LEFT' : 'RIGHT',
    commit_id: c.commit_id ?? null,
    html_url: c.html_url ?? null,
  }));
}

/** The 'eyes' reaction that says the bot saw it; failing to react never fails the event. */
async function acknowledge(deps: GitHubEventDeps, repo: Repo, event: ThreadEvent): Promise<void> {
  if (!event.reactTo) return;
  const [owner = '', name = ''] = repo.fullName.split('/');
  const client = deps.gateway.installationClient(repo.installationId);
  const target = event.reactTo;
  try {
    if (target.kind === 'comment')
      await client.rest.reactions.createForIssueComment({
        owner,
        repo: name,
        comment_id: target.id,
        content: 'eyes',
      });
    else if (target.kind === 'review_comment')
      await client.rest.reactions.createForPullRequestReviewComment({
        owner,
        repo: name,
        comment_id: target.id,
        content: 'eyes',
      });
    else
      await client.rest.reactions.createForIssue({
        owner,
        repo: name,
        issue_number: target.number,
        content: 'eyes',
      });
  } catch (error) {
    deps.log.warn(
      { err: error, repository: repo.fullName, number: event.number },
      'could not react to a comment',
    );
  }
}

export async function comment(
  deps: Pick<GitHubEventDeps, 'gateway' | 'log'>,
  repo: Pick<Repo, 'fullName' | 'installationId'>,
  number: number,
  body: string,
): Promise<void> {
  const [owner = '', name = ''] = repo.fullName.split('/');
  try {
    await deps.gateway
      .installationClient(repo.installationId)
      .rest.issues.createComment({ owner, repo: name, issue_number: number, body });
  } catch (error) {
    deps.log.warn({ err: error, repository: repo.fullName, number }, 'could not comment on the code host');
  }
}
