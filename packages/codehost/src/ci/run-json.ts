import type { Context } from '../rest/context.js';
import type { HostRepo, HostWorkflowJob, HostWorkflowRun } from '../store/types.js';

/** The keys of GitHub's `repository-lite` (webhook workflow runs allow no others). */
const LITE_KEYS = [
  'archive_url',
  'assignees_url',
  'blobs_url',
  'branches_url',
  'collaborators_url',
  'comments_url',
  'commits_url',
  'compare_url',
  'contents_url',
  'contributors_url',
  'deployments_url',
  'description',
  'downloads_url',
  'events_url',
  'fork',
  'forks_url',
  'full_name',
  'git_commits_url',
  'git_refs_url',
  'git_tags_url',
  'hooks_url',
  'html_url',
  'id',
  'issue_comment_url',
  'issue_events_url',
  'issues_url',
  'keys_url',
  'labels_url',
  'languages_url',
  'merges_url',
  'milestones_url',
  'name',
  'node_id',
  'notifications_url',
  'owner',
  'private',
  'pulls_url',
  'releases_url',
  'stargazers_url',
  'statuses_url',
  'subscribers_url',
  'subscription_url',
  'tags_url',
  'teams_url',
  'trees_url',
  'url',
] as const;

function liteRepo(ctx: Context, repo: HostRepo) {
  const full = ctx.shapes.repo(repo) as Record<string, unknown>;
  return Object.fromEntries(LITE_KEYS.map((k) => [k, full[k]]));
}

export function runHtmlUrl(ctx: Context, run: HostWorkflowRun): string {
  return `${ctx.shapes.webUrl}/${run.repo}/actions/runs/${run.id}`;
}

export function jobHtmlUrl(ctx: Context, run: HostWorkflowRun, job: HostWorkflowJob): string {
  return `${runHtmlUrl(ctx, run)}/job/${job.id}`;
}

function runPulls(ctx: Context, repo: HostRepo, run: HostWorkflowRun) {
  const ref = { id: repo.id, url: `${ctx.shapes.apiUrl}/repos/${run.repo}`, name: repo.name };
  return run.pulls.map((p) => ({
    url: `${ctx.shapes.apiUrl}/repos/${run.repo}/pulls/${p.number}`,
    id: p.id,
    number: p.number,
    head: { ref: p.headRef, sha: p.headSha, repo: ref },
    base: { ref: p.baseRef, sha: p.baseSha, repo: ref },
  }));
}

/** The fields REST and webhooks share; the repositories differ (minimal vs lite). */
function runFields(ctx: Context, repo: HostRepo, run: HostWorkflowRun) {
  const api = `${ctx.shapes.apiUrl}/repos/${run.repo}`;
  const url = `${api}/actions/runs/${run.id}`;
  const person = { name: run.headCommit.authorName, email: run.headCommit.authorEmail };
  return {
    id: run.id,
    name: run.name,
    node_id: `WFR_${run.id}`,
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.headCommit.message.split('\n')[0] ?? '',
    run_number: run.runNumber,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    // Each run is its own check suite here.
    check_suite_id: run.id,
    check_suite_node_id: `CS_${run.id}`,
    url,
    html_url: runHtmlUrl(ctx, run),
    pull_requests: runPulls(ctx, repo, run),
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    actor: ctx.shapes.account(run.actor),
    triggering_actor: ctx.shapes.account(run.actor),
    run_attempt: 1,
    referenced_workflows: [],
    run_started_at: run.runStartedAt ?? run.createdAt,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/check-suites/${run.id}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${api}/actions/workflows/${run.workflowId}`,
    head_commit: {
      id: run.headSha,
      tree_id: run.headCommit.treeId,
      message: run.headCommit.message,
      timestamp: run.headCommit.timestamp,
      author: person,
      committer: person,
    },
  };
}

/** A workflow run as GET /repos/{o}/{r}/actions/runs/{id} answers it. */
export function runJson(ctx: Context, repo: HostRepo, run: HostWorkflowRun) {
  return {
    ...runFields(ctx, repo, run),
    repository: ctx.shapes.repo(repo),
    head_repository: ctx.shapes.repo(repo),
  };
}

/** A workflow run as `workflow_run` webhooks carry it (GitHub's webhook schema allows no more). */
export function runWebhookJson(ctx: Context, repo: HostRepo, run: HostWorkflowRun) {
  return {
    ...runFields(ctx, repo, run),
    repository: liteRepo(ctx, repo),
    head_repository: liteRepo(ctx, repo),
  };
}

/** The `workflow` object of a `workflow_run` webhook. */
export function workflowJson(ctx: Context, run: HostWorkflowRun, createdAt: string) {
  const api = `${ctx.shapes.apiUrl}/repos/${run.repo}`;
  return {
    id: run.workflowId,
    node_id: `W_${run.workflowId}`,
    name: run.name,
    path: run.path,
    state: 'active',
    created_at: createdAt,
    updated_at: createdAt,
    url: `${api}/actions/workflows/${run.workflowId}`,
    html_url: `${ctx.shapes.webUrl}/${run.repo}/blob/${run.headBranch}/${run.path}`,
    badge_url: `${ctx.shapes.webUrl}/${run.repo}/workflows/${encodeURIComponent(run.name)}/badge.svg`,
  };
}

/** A job as GET …/actions/runs/{id}/jobs lists it. */
export function jobJson(ctx: Context, run: HostWorkflowRun, job: HostWorkflowJob) {
  const api = `${ctx.shapes.apiUrl}/repos/${run.repo}`;
  return {
    id: job.id,
    node_id: `J_${job.id}`,
    run_id: run.id,
    run_url: `${api}/actions/runs/${run.id}`,
    run_attempt: 1,
    head_sha: run.headSha,
    head_branch: run.headBranch,
    workflow_name: run.name,
    name: job.name,
    url: `${api}/actions/jobs/${job.id}`,
    html_url: jobHtmlUrl(ctx, run, job),
    status: job.status,
    conclusion: job.conclusion,
    created_at: job.createdAt,
    started_at: job.startedAt ?? job.createdAt,
    completed_at: job.completedAt,
    check_run_url: `${api}/check-runs/${job.id}`,
    labels: ['ubuntu-latest'],
    runner_id: job.startedAt ? 1 : null,
    runner_name: job.startedAt ? 'tandem-local-ci' : null,
    runner_group_id: job.startedAt ? 1 : null,
    runner_group_name: job.startedAt ? 'local' : null,
    steps: job.steps.map((s) => ({
      name: s.name,
      status: s.status,
      conclusion: s.conclusion,
      number: s.number,
      started_at: s.startedAt,
      completed_at: s.completedAt,
    })),
  };
}

/** A job as a check run (GET …/commits/{ref}/check-runs), as GitHub shows Actions jobs. */
export function checkRunJson(ctx: Context, repo: HostRepo, run: HostWorkflowRun, job: HostWorkflowJob) {
  const api = `${ctx.shapes.apiUrl}/repos/${run.repo}`;
  const app = ctx.host.credentials;
  return {
    id: job.id,
    node_id: `CR_${job.id}`,
    head_sha: run.headSha,
    external_id: String(job.id),
    name: job.name,
    url: `${api}/check-runs/${job.id}`,
    html_url: jobHtmlUrl(ctx, run, job),
    details_url: jobHtmlUrl(ctx, run, job),
    status: job.status,
    conclusion: job.conclusion,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    output: {
      title: null,
      summary: null,
      text: null,
      annotations_count: 0,
      annotations_url: `${api}/check-runs/${job.id}/annotations`,
    },
    check_suite: { id: run.id },
    app: {
      id: app.appId,
      slug: 'github-actions',
      node_id: `A_${app.appId}`,
      owner: ctx.shapes.account(repo.owner),
      name: 'GitHub Actions',
      description: 'The local CI of the Tandem code host',
      external_url: ctx.shapes.webUrl,
      html_url: `${ctx.shapes.webUrl}/apps/github-actions`,
      created_at: repo.createdAt,
      updated_at: repo.createdAt,
      permissions: {},
      events: [],
    },
    pull_requests: runPulls(ctx, repo, run),
  };
}
