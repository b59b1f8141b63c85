import type { FastifyInstance } from 'fastify';
import { resolveRef } from '../git/repo-reads.js';
import { checkRunJson, jobJson, runJson } from '../ci/run-json.js';
import type { HostWorkflowRun } from '../store/types.js';
import { HttpError, paginate, readableRepo, type Context } from './context.js';

type RepoParams = { owner: string; repo: string };
type RunQuery = { branch?: string; head_sha?: string; event?: string; status?: string };

const STATUSES = ['queued', 'in_progress', 'completed'];

/** GitHub's `status` filter takes a status or a conclusion. */
function statusMatches(run: HostWorkflowRun, wanted: string | undefined): boolean {
  if (!wanted) return true;
  return STATUSES.includes(wanted) ? run.status === wanted : run.conclusion === wanted;
}

/** The local CI's runs, jobs, logs and check runs at GitHub's Actions and Checks endpoints. */
export function actionsRoutes(app: FastifyInstance, ctx: Context): void {
  const records = () => {
    if (!ctx.ci) throw new HttpError(404, 'Not Found');
    return ctx.ci.records;
  };
  const findRun = (full: string, id: string) => {
    const run = records().run(Number(id));
    if (!run || run.repo !== full) throw new HttpError(404, 'Not Found');
    return run;
  };

  app.get<{ Params: RepoParams; Querystring: RunQuery }>(
    '/repos/:owner/:repo/actions/runs',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const { branch, head_sha: headSha, event, status } = request.query;
      const runs = ctx.ci
        ? records()
            .runs(`${repo.owner}/${repo.name}`)
            .filter((r) => !branch || r.headBranch === branch)
            .filter((r) => !headSha || r.headSha === headSha)
            .filter((r) => !event || r.event === event)
            .filter((r) => statusMatches(r, status))
            .sort((a, b) => b.id - a.id)
        : [];
      const page = paginate(request, runs, (n, v) => reply.header(n, v), ctx);
      return { total_count: runs.length, workflow_runs: page.map((r) => runJson(ctx, repo, r)) };
    },
  );

  app.get<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/actions/runs/:id',
    async (request) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      return runJson(ctx, repo, findRun(`${repo.owner}/${repo.name}`, request.params.id));
    },
  );

  app.get<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/actions/runs/:id/jobs',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const run = findRun(`${repo.owner}/${repo.name}`, request.params.id);
      const jobs = records().jobs(run.id);
      const page = paginate(request, jobs, (n, v) => reply.header(n, v), ctx);
      return { total_count: jobs.length, jobs: page.map((j) => jobJson(ctx, run, j)) };
    },
  );

  // GitHub answers with a redirect to a short-lived download link that needs no credentials.
  app.get<{ Params: RepoParams & { id: string } }>(
    '/repos/:owner/:repo/actions/jobs/:id/logs',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const job = records().job(Number(request.params.id));
      if (!job) throw new HttpError(404, 'Not Found');
      findRun(`${repo.owner}/${repo.name}`, String(job.runId));
      const token = ctx.ci!.logToken(job.id);
      return reply.redirect(`${ctx.shapes.webUrl}/_actions/jobs/${job.id}/log?token=${token}`, 302);
    },
  );

  app.get<{ Params: RepoParams & { ref: string }; Querystring: { check_name?: string } }>(
    '/repos/:owner/:repo/commits/:ref/check-runs',
    async (request, reply) => {
      const { repo } = readableRepo(request, ctx, request.params.owner, request.params.repo);
      const bare = ctx.host.repoPath(repo);
      const ref = request.params.ref;
      const sha = /^[0-9a-f]{40}$/.test(ref)
        ? ref
        : ((await resolveRef(bare, `refs/heads/${ref}`)) ?? (await resolveRef(bare, ref)));
      if (!sha) throw new HttpError(422, `No commit found for SHA: ${ref}`);
      const checks = ctx.ci
        ? records()
            .runs(`${repo.owner}/${repo.name}`)
            .filter((r) => r.headSha === sha)
            .sort((a, b) => b.id - a.id)
            .flatMap((run) =>
              records()
                .jobs(run.id)
                .map((job) => ({ run, job })),
            )
            .filter(({ job }) => !request.query.check_name || job.name === request.query.check_name)
        : [];
      const page = paginate(request, checks, (n, v) => reply.header(n, v), ctx);
      return {
        total_count: checks.length,
        check_runs: page.map(({ run, job }) => checkRunJson(ctx, repo, run, job)),
      };
    },
  );
}

/** The download behind the redirect: the log as text, for whoever holds the signed link. */
export function actionsLogDownloadRoute(app: FastifyInstance, ctx: Context): void {
  app.get<{ Params: { id: string }; Querystring: { token?: string } }>(
    '/_actions/jobs/:id/log',
    async (request, reply) => {
      const id = Number(request.params.id);
      if (!ctx.ci || !ctx.ci.verifyLogToken(id, request.query.token ?? ''))
        return reply
          .status(403)
          .type('text/plain; charset=utf-8')
          .send('This log link expired or is invalid.\n');
      const log = ctx.ci.records.readLog(id) ?? '';
      // Hostile text: never rendered by a browser as anything but text.
      return reply
        .type('text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(log);
    },
  );
}
