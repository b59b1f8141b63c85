import type { FastifyInstance } from 'fastify';
import { HttpError, type Context } from '../rest/context.js';
import type { HostRepo, HostWorkflowRun, RunConclusion, RunStatus } from '../store/types.js';
import { esc } from './html.js';
import { sendPage } from './layout.js';
import { repoBase, repoNav, visibleRepo, type RepoParams } from './repo-access.js';

/** A run's or job's state in words (never colour alone). */
export function stateLabel(status: RunStatus, conclusion: RunConclusion): string {
  if (status !== 'completed') return status === 'queued' ? 'Queued' : 'In progress';
  const words: Record<string, string> = {
    success: 'Succeeded',
    failure: 'Failed',
    cancelled: 'Cancelled',
    skipped: 'Skipped',
    timed_out: 'Timed out',
  };
  return words[conclusion ?? ''] ?? 'Completed';
}

const runHref = (repo: HostRepo, run: HostWorkflowRun) => `${repoBase(repo)}/actions/runs/${run.id}`;

/** The head commit's workflow runs, for the pull request page. */
export function runsSection(ctx: Context, repo: HostRepo, sha: string | null): string {
  if (!ctx.ci || !sha) return '';
  const runs = ctx.ci.records
    .runs(`${repo.owner}/${repo.name}`)
    .filter((r) => r.headSha === sha)
    .sort((a, b) => b.id - a.id);
  const items = runs
    .map(
      (run) =>
        `<li><a href="${esc(runHref(repo, run))}">${esc(run.name)} #${run.runNumber}</a> <span class="muted">(${esc(run.event)})</span>: <strong>${esc(stateLabel(run.status, run.conclusion))}</strong></li>`,
    )
    .join('');
  return `<section class="box" aria-labelledby="checks-heading"><h2 id="checks-heading">Checks</h2>${
    runs.length
      ? `<ul aria-label="Workflow runs of ${esc(sha.slice(0, 7))}">${items}</ul>`
      : `<p class="muted">No workflow runs for <code>${esc(sha.slice(0, 7))}</code>.</p>`
  }</section>`;
}

/**
 * A run with its jobs, their steps and logs. Logs are written by the repository's own commands:
 * hostile text, so only ever escaped into a <pre> (and the pages' CSP forbids scripts anyway).
 */
export function runPageRoutes(app: FastifyInstance, ctx: Context): void {
  const show = async (
    request: Parameters<typeof visibleRepo>[0] & { params: RepoParams & { id: string } },
    reply: Parameters<typeof sendPage>[1],
  ) => {
    const repo = visibleRepo(request, ctx, request.params);
    const run = ctx.ci?.records.run(Number(request.params.id));
    if (!ctx.ci || !run || run.repo !== `${repo.owner}/${repo.name}`) throw new HttpError(404, 'Not Found');
    const jobs = ctx.ci.records.jobs(run.id).map((job) => {
      const steps = job.steps
        .map((s) => `<li>${esc(s.name)}: ${esc(stateLabel(s.status, s.conclusion))}</li>`)
        .join('');
      const log = ctx.ci!.records.readLog(job.id);
      return `<section class="box" id="job-${job.id}" aria-labelledby="job-${job.id}-heading">
<h2 id="job-${job.id}-heading">${esc(job.name)}: ${esc(stateLabel(job.status, job.conclusion))}</h2>
${steps ? `<ol aria-label="Steps of ${esc(job.name)}">${steps}</ol>` : ''}
<h3>Log</h3>
${log ? `<pre tabindex="0" aria-label="Log of ${esc(job.name)}">${esc(log)}</pre>` : '<p class="muted">No log yet.</p>'}
</section>`;
    });
    const body = `${repoNav(ctx, repo, 'code')}
<p><strong>${esc(stateLabel(run.status, run.conclusion))}</strong> · ${esc(run.event)} on <code>${esc(run.headBranch)}</code> at <a href="${esc(`${repoBase(repo)}/commit/${run.headSha}`)}"><code>${esc(run.headSha.slice(0, 7))}</code></a> by ${esc(run.actor)} · <code>${esc(run.path)}</code></p>
${jobs.join('\n') || '<p class="muted">No jobs.</p>'}`;
    return sendPage(request, reply, ctx, `${run.name} #${run.runNumber}`, body);
  };

  app.get<{ Params: RepoParams & { id: string } }>('/:owner/:repo/actions/runs/:id', (request, reply) =>
    show(request, reply),
  );
  // GitHub's job links: the same page, at the job.
  app.get<{ Params: RepoParams & { id: string; job: string } }>(
    '/:owner/:repo/actions/runs/:id/job/:job',
    (request, reply) => show(request, reply),
  );
}
