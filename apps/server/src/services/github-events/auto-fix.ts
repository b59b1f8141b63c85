import { and, count, desc, eq, gt, isNotNull, ne, or, isNull } from 'drizzle-orm';
import { appendItem, keyUuid } from '@tandem/agent';
import { agents, conversationItems, repositories, type Db } from '@tandem/db';
import { jobLogTail, listJobs } from '@tandem/github';
import type { WorkflowRunWebhookPayload } from '@tandem/shared';
import { comment, type GitHubEventDeps } from './handle-thread-event.js';

/**
 * Fix attempts per round: after this many failed runs woke the agent since a person last wrote
 * to it, the next failure is reported and left to people (docs/decisions.md "Auto-fix").
 */
export const AUTO_FIX_ATTEMPTS = 2;
/** How much of the failed job's log the wake-up message quotes; the agent can read more (ci_log). */
const LOG_EXCERPT_BYTES = 4000;
const CI_ACTION = 'workflow_run';

/**
 * A run failed on commits of these agents: an agent whose own branch it is, whose newest commit
 * failed, in a repository with auto-fix on, is woken with the failed job and its log's end, to
 * fix it and push. It stops after AUTO_FIX_ATTEMPTS, saying so in its feed and on the pull request.
 */
export async function wakeForFailedRun(
  deps: GitHubEventDeps,
  payload: WorkflowRunWebhookPayload,
  agentIds: string[],
): Promise<void> {
  const run = payload.workflow_run;
  for (const agentId of agentIds) {
    const [row] = await deps.db
      .select({ agent: agents, repo: repositories })
      .from(agents)
      .innerJoin(repositories, eq(repositories.id, agents.repositoryId))
      .where(eq(agents.id, agentId));
    if (!row || row.agent.archived || !row.repo.autoFix || row.agent.branch !== run.head_branch) continue;
    if ((await newestCommitSha(deps.db, agentId)) !== run.head_sha) continue;

    const attempts = await attemptsThisRound(deps.db, agentId);
    const pull = run.pull_requests?.[0]?.number;
    const name = run.name?.trim() || 'CI';
    if (attempts >= AUTO_FIX_ATTEMPTS) {
      await reportStopped(deps, row.repo, agentId, run, pull);
      continue;
    }

    const message = await failureMessage(deps, row.repo, run, attempts + 1);
    await appendItem(deps.db, agentId, {
      itemType: 'message',
      actionType: CI_ACTION,
      // The model is fed messages that have a person; CI speaks for the agent's owner.
      userId: row.agent.creatorId,
      dedupeKey: `ci:${run.id}:${run.run_attempt ?? 1}`,
      data: {
        message,
        username: 'CI',
        github_event_type: 'workflow_run',
        workflow_run_id: run.id,
        workflow_name: name,
        workflow_status: 'failure',
        html_url: run.html_url ?? null,
        repository_name: row.repo.fullName,
        ...(pull ? { number: pull } : {}),
      },
    });
    await deps.db.update(agents).set({ status: 'pending' }).where(eq(agents.id, agentId));
    deps.runner.enqueue(agentId);
  }
}

async function newestCommitSha(db: Db, agentId: string): Promise<string | undefined> {
  const [newest] = await db
    .select({ data: conversationItems.data })
    .from(conversationItems)
    .where(and(eq(conversationItems.agentId, agentId), eq(conversationItems.itemType, 'commit')))
    .orderBy(desc(conversationItems.timestamp))
    .limit(1);
  const sha = newest?.data.commit_sha;
  return typeof sha === 'string' ? sha : undefined;
}

/** CI wake-ups since a person last wrote to the agent: a person's message starts a new round. */
async function attemptsThisRound(db: Db, agentId: string): Promise<number> {
  const [person] = await db
    .select({ at: conversationItems.timestamp })
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, agentId),
        eq(conversationItems.itemType, 'message'),
        isNotNull(conversationItems.userId),
        or(isNull(conversationItems.actionType), ne(conversationItems.actionType, CI_ACTION)),
      ),
    )
    .orderBy(desc(conversationItems.timestamp))
    .limit(1);
  const [row] = await db
    .select({ n: count() })
    .from(conversationItems)
    .where(
      and(
        eq(conversationItems.agentId, agentId),
        eq(conversationItems.actionType, CI_ACTION),
        ...(person ? [gt(conversationItems.timestamp, person.at)] : []),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Out of attempts: the feed says so, once per round (keyed by the round's last CI wake-up, so a
 * redelivery or another failed run stays quiet), and so does the pull request.
 */
async function reportStopped(
  deps: GitHubEventDeps,
  repo: { fullName: string; installationId: number },
  agentId: string,
  run: WorkflowRunWebhookPayload['workflow_run'],
  pull: number | undefined,
): Promise<void> {
  const [lastWake] = await deps.db
    .select({ at: conversationItems.timestamp })
    .from(conversationItems)
    .where(and(eq(conversationItems.agentId, agentId), eq(conversationItems.actionType, CI_ACTION)))
    .orderBy(desc(conversationItems.timestamp))
    .limit(1);
  const key = `ci-stopped:${lastWake?.at ?? 'none'}`;
  const [already] = await deps.db
    .select({ id: conversationItems.id })
    .from(conversationItems)
    .where(
      and(eq(conversationItems.agentId, agentId), eq(conversationItems.actionUuid, keyUuid(agentId, key))),
    );
  if (already) return;
  const name = run.name?.trim() || 'CI';
  const summary = `CI "${name}" failed again; auto-fix stopped after ${AUTO_FIX_ATTEMPTS} attempts. Message the agent to continue.`;
  await appendItem(deps.db, agentId, {
    itemType: 'action',
    actionType: 'ActivitySummaryEvent',
    dedupeKey: key,
    data: { action_type: 'ActivitySummaryEvent', summary, html_url: run.html_url ?? null },
  });
  if (pull) await comment(deps, repo, pull, run.html_url ? `${summary} ${run.html_url}` : summary);
}

async function failureMessage(
  deps: GitHubEventDeps,
  repo: { fullName: string; installationId: number },
  run: WorkflowRunWebhookPayload['workflow_run'],
  attempt: number,
): Promise<string> {
  const name = run.name?.trim() || 'CI';
  const lines = [
    `CI run "${name}" failed on ${run.head_sha.slice(0, 7)} (${run.html_url ?? `run ${run.id}`}). Auto-fix attempt ${attempt} of ${AUTO_FIX_ATTEMPTS}.`,
  ];
  const [owner = '', name_ = ''] = repo.fullName.split('/');
  try {
    const client = deps.gateway.installationClient(repo.installationId);
    const jobs = await listJobs(client, { owner, repo: name_ }, run.id);
    const failed =
      jobs.find((j) => j.conclusion === 'failure') ?? jobs.find((j) => j.conclusion !== 'success');
    if (failed) {
      const log = await jobLogTail(client, { owner, repo: name_ }, failed.id, LOG_EXCERPT_BYTES);
      const step = failed.failedStep ? `, step "${failed.failedStep}"` : '';
      lines.push(`Failed job: "${failed.name}" (job ${failed.id}${step}). The end of its log:`);
      lines.push('```', log.text.replaceAll('```', "'''").trimEnd(), '```');
    }
  } catch (error) {
    deps.log.warn({ err: error, runId: run.id }, 'auto-fix: could not read the failed job');
    lines.push('The job log could not be read; use ci_status and ci_log.');
  }
  lines.push(
    "If your changes caused the failure, fix it, run the tests, and commit and push. If the failure is not caused by your branch's changes (a flaky test, a broken base branch, missing secrets), do not change code: say so in a comment on the pull request, then finish.",
  );
  return lines.join('\n');
}
