import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { nextTimestamp } from '@tandem/agent';
import { advancedLatest, agents, conversationItems, repositories, type Db } from '@tandem/db';
import type { CheckSuiteWebhookPayload, WorkflowRunWebhookPayload } from '@tandem/shared';

/** The feed's workflow statuses (workspace §4): queued, in_progress, success, failure. */
export type WorkflowStatus = 'queued' | 'in_progress' | 'success' | 'failure';

export interface WorkflowEntry {
  workflow_run_id: number;
  workflow_name: string;
  workflow_status: WorkflowStatus;
  /** A re-run keeps the run's id and counts attempts: a newer attempt replaces a finished one. */
  workflow_run_attempt: number;
  html_url: string | null;
}

/**
 * A run's status as the feed shows it. Concluded runs are success or failure: skipped and
 * neutral runs did not fail, everything else (timed out, cancelled, action required, a start-up
 * failure) needs a person or the agent.
 */
export function workflowStatus(run: WorkflowRunWebhookPayload['workflow_run']): WorkflowStatus {
  if (run.status === 'completed') {
    return ['success', 'skipped', 'neutral'].includes(run.conclusion ?? '') ? 'success' : 'failure';
  }
  return run.status === 'in_progress' ? 'in_progress' : 'queued';
}

const finished = (s: WorkflowStatus) => s === 'success' || s === 'failure';

/** The commit's workflows after one event: events arrive out of order, and re-runs restart. */
export function mergeWorkflow(current: unknown, next: WorkflowEntry): WorkflowEntry[] {
  const list = Array.isArray(current) ? (current as WorkflowEntry[]) : [];
  const i = list.findIndex((w) => w.workflow_run_id === next.workflow_run_id);
  if (i < 0) return [...list, next];
  const old = list[i]!;
  const attempt = old.workflow_run_attempt ?? 1;
  const stale =
    next.workflow_run_attempt < attempt ||
    (next.workflow_run_attempt === attempt &&
      finished(old.workflow_status) &&
      !finished(next.workflow_status));
  if (stale) return list;
  return list.map((w, j) => (j === i ? next : w));
}

/**
 * A workflow_run delivery: the run is shown on every agent commit item with its head sha, in
 * the repository it ran in. Returns the agents whose commits it concerns (auto-fix acts on them).
 */
export async function applyWorkflowRun(
  db: Db,
  payload: WorkflowRunWebhookPayload,
  /** Whether the event may be tried again when its commit is not recorded yet (first attempts). */
  options: { mayRetry?: boolean } = {},
): Promise<{ agentIds: string[]; status: WorkflowStatus; repositoryId: string } | null> {
  const run = payload.workflow_run;
  if (!payload.repository || !payload.installation) return null;
  const [repo] = await db
    .select({ id: repositories.id, installationId: repositories.installationId })
    .from(repositories)
    .where(and(eq(repositories.githubId, payload.repository.id), isNull(repositories.removedAt)));
  if (!repo || repo.installationId !== payload.installation.id) return null;
  const entry: WorkflowEntry = {
    workflow_run_id: run.id,
    workflow_name: run.name?.trim() || 'Workflow',
    workflow_status: workflowStatus(run),
    workflow_run_attempt: run.run_attempt ?? 1,
    html_url: run.html_url ?? null,
  };
  const agentIds = await db.transaction(async (tx) => {
    // Locked: two events of one run (or two runs of one commit) must not overwrite each other.
    const items = await tx
      .select({ id: conversationItems.id, agentId: conversationItems.agentId, data: conversationItems.data })
      .from(conversationItems)
      .innerJoin(agents, eq(agents.id, conversationItems.agentId))
      .where(
        and(
          eq(conversationItems.itemType, 'commit'),
          sql`(${conversationItems.data} ->> 'commit_sha') = ${run.head_sha}`,
          eq(agents.repositoryId, repo.id),
        ),
      )
      .for('update', { of: conversationItems });
    const changed: string[] = [];
    for (const item of items) {
      const workflows = mergeWorkflow(item.data.workflows, entry);
      if (JSON.stringify(workflows) === JSON.stringify(item.data.workflows)) continue;
      await tx
        .update(conversationItems)
        .set({ data: { ...item.data, workflows } })
        .where(eq(conversationItems.id, item.id));
      changed.push(item.agentId);
    }
    const unique = [...new Set(changed)];
    // Open pages read the newest page again when this moves (see updateItemData).
    if (unique.length)
      await tx
        .update(agents)
        .set({ latestTimestamp: advancedLatest(new Date(nextTimestamp())) })
        .where(inArray(agents.id, unique));
    return unique;
  });
  if (agentIds.length === 0 && options.mayRetry && run.head_branch) {
    await requireNoPendingCommit(db, repo.id, run.head_branch);
  }
  return { agentIds, status: entry.workflow_status, repositoryId: repo.id };
}

/** Thrown so the webhook queue applies the event again shortly (its retry delays). */
export class CommitNotRecordedYet extends Error {
  /** An expected wait, not a failure: the queue logs it quietly. */
  readonly expected = true;
}

/**
 * CI starts as a push lands, so a run's first events can arrive before the pushing agent has
 * recorded the commit item they belong to. When an agent is working on the run's branch, the
 * event is tried again later rather than dropped; an agent not working there has no commit coming.
 */
async function requireNoPendingCommit(db: Db, repositoryId: string, branch: string): Promise<void> {
  const [working] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(
        eq(agents.repositoryId, repositoryId),
        eq(agents.branch, branch),
        inArray(agents.status, ['pending', 'open']),
      ),
    )
    .limit(1);
  if (working)
    throw new CommitNotRecordedYet(
      `CI event for ${branch} came before agent ${working.id} recorded its commit; trying again`,
    );
}

/**
 * check_suite of a CI app other than GitHub Actions (whose runs arrive as workflow_run): shown
 * and acted on like a workflow run named after the app. Actions' own suites are left out, or
 * every Actions run would show twice.
 */
export function checkSuiteAsRun(payload: CheckSuiteWebhookPayload): WorkflowRunWebhookPayload | null {
  const suite = payload.check_suite;
  if (!suite.app || suite.app.slug === 'github-actions') return null;
  return {
    action: payload.action === 'completed' ? 'completed' : payload.action,
    installation: payload.installation,
    repository: payload.repository,
    workflow_run: {
      id: suite.id,
      name: suite.app.name ?? suite.app.slug ?? 'Checks',
      head_sha: suite.head_sha,
      head_branch: suite.head_branch ?? null,
      status: suite.status ?? null,
      conclusion: suite.conclusion ?? null,
      pull_requests: suite.pull_requests,
    },
  };
}
