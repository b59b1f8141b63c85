import type { Logger } from 'pino';
import { getCommit, listTree, readPath, resolveRef } from '../git/repo-reads.js';
import type { Actor } from '../host.js';
import type { Context } from '../rest/context.js';
import { eventBase } from '../rest/issue-model.js';
import type { HostIssue, HostRepo, HostWorkflowRun, RunConclusion } from '../store/types.js';
import type { CiHandle } from './ci-handle.js';
import { checkoutCommit } from './checkout.js';
import type { CiCommandRunner } from './command-runner.js';
import { LogLinks } from './log-links.js';
import { runJob, type JobContext, type JobLimits } from './run-job.js';
import { runWebhookJson, workflowJson } from './run-json.js';
import { RunRecords } from './run-records.js';
import {
  jobOrder,
  parseWorkflow,
  triggeredBy,
  WorkflowError,
  type CiEvent,
  type Workflow,
} from './workflow-file.js';

export interface LocalCiOptions {
  runner: CiCommandRunner;
  /** Per job; default 10 minutes. */
  jobTimeoutMs?: number;
  /** Per job's log; default 1 MiB. */
  maxLogBytes?: number;
}

const WORKFLOW_DIR = '.github/workflows';
/** A workflow file bigger than this is refused rather than parsed (hostile input). */
const MAX_WORKFLOW_BYTES = 256 * 1024;
const MAX_WORKFLOW_FILES = 20;

interface Plan {
  repo: HostRepo;
  actor: Actor;
  /** Null when the file could not be read: the run fails with the reason in its one job's log. */
  workflow: Workflow | null;
  error: string | null;
  context: JobContext;
}

/**
 * The code host's CI (DESIGN §6): on a push, the pushed commit's workflows whose triggers match
 * become runs, announced with `workflow_run` webhooks (requested → in_progress → completed) and
 * executed one job at a time, each in a fresh checkout through the injected runner.
 */
export class LocalCi implements CiHandle {
  readonly records: RunRecords;
  private readonly links = new LogLinks();
  private readonly limits: JobLimits;
  private intake: Promise<void> = Promise.resolve();
  private readonly waiting: number[] = [];
  private readonly plans = new Map<number, Plan>();
  private running: Promise<void> | null = null;
  private closed = false;
  /** Stops the running step when the code host closes (a job may otherwise run for minutes). */
  private readonly stopping = new AbortController();

  constructor(
    private readonly ctx: Context,
    private readonly options: LocalCiOptions,
    private readonly logger: Logger,
  ) {
    this.records = new RunRecords(ctx.host.store, ctx.host.dataDir);
    this.limits = {
      timeoutMs: options.jobTimeoutMs ?? 10 * 60_000,
      maxLogBytes: options.maxLogBytes ?? 1024 * 1024,
    };
    this.records.cancelUnfinished();
  }

  pushed(repo: HostRepo, branch: string, sha: string, actor: Actor): void {
    this.accept(async () => {
      await this.trigger(repo, actor, sha, branch, 'push', branch);
      const full = `${repo.owner}/${repo.name}`;
      for (const issue of this.ctx.host.state.issues.filter(
        (i) => i.repo === full && i.state === 'open' && i.pull?.head === branch,
      ))
        await this.trigger(repo, actor, sha, branch, 'pull_request', issue.pull!.base);
    });
  }

  pullOpened(repo: HostRepo, issue: HostIssue, actor: Actor): void {
    this.accept(async () => {
      const sha = await resolveRef(this.ctx.host.repoPath(repo), `refs/heads/${issue.pull!.head}`);
      if (sha) await this.trigger(repo, actor, sha, issue.pull!.head, 'pull_request', issue.pull!.base);
    });
  }

  logToken(jobId: number): string {
    return this.links.token(jobId);
  }

  verifyLogToken(jobId: number, token: string): boolean {
    return this.links.verify(jobId, token);
  }

  /** Resolves once every accepted push has become runs and every queued run has finished (tests). */
  async idle(): Promise<void> {
    for (;;) {
      await this.intake;
      if (this.running) await this.running;
      else if (!this.waiting.length) return;
      else await new Promise((r) => setImmediate(r));
    }
  }

  /** Queued runs end as cancelled, and the running job's step is killed and the job cancelled. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopping.abort();
    await this.intake;
    for (const id of this.waiting.splice(0)) this.finish(id, 'cancelled', false);
    await this.running;
  }

  private accept(work: () => Promise<void>): void {
    if (this.closed) return;
    this.intake = this.intake
      .then(work)
      .catch((error: unknown) => this.logger.error({ err: error }, 'local CI could not start runs'));
  }

  /** Makes runs of the commit's workflows that this event triggers, and queues them. */
  private async trigger(
    repo: HostRepo,
    actor: Actor,
    sha: string,
    branch: string,
    event: CiEvent,
    filterBranch: string,
  ): Promise<void> {
    const bare = this.ctx.host.repoPath(repo);
    const files = ((await listTree(bare, sha, WORKFLOW_DIR)) ?? [])
      .filter((e) => e.type === 'blob' && /\.ya?ml$/.test(e.name))
      .slice(0, MAX_WORKFLOW_FILES);
    if (!files.length) return;
    const commit = await getCommit(bare, sha);
    if (!commit) return;
    const full = `${repo.owner}/${repo.name}`;
    const pulls = await this.openPulls(repo, branch);
    for (const file of files) {
      let workflow: Workflow | null;
      let error: string | null = null;
      try {
        if (file.size > MAX_WORKFLOW_BYTES)
          throw new WorkflowError(`The file is over ${MAX_WORKFLOW_BYTES} bytes`);
        const read = await readPath(bare, sha, file.path);
        workflow = parseWorkflow(file.path, read?.kind === 'file' ? read.content.toString('utf8') : '');
        jobOrder(workflow.jobs);
        if (!triggeredBy(workflow, event, filterBranch)) continue;
      } catch (failure) {
        if (!(failure instanceof WorkflowError)) throw failure;
        // GitHub reports a broken workflow file once, on push, as a failed run.
        if (event !== 'push') continue;
        workflow = null;
        error = failure.message;
      }
      const name = workflow?.name ?? file.path;
      const stored = this.records.workflowFor(full, file.path, name);
      const jobNames = workflow ? jobOrder(workflow.jobs).map((j) => j.name) : [file.path];
      const { run } = this.records.createRun(
        {
          repo: full,
          workflowId: stored.id,
          name,
          path: file.path,
          headBranch: branch,
          headSha: sha,
          event,
          actor: this.ctx.host.actorLogin(actor),
          pulls,
          headCommit: {
            message: commit.message,
            treeId: commit.tree,
            timestamp: commit.date,
            authorName: commit.authorName,
            authorEmail: commit.authorEmail,
          },
        },
        jobNames,
      );
      const context = { repo: full, sha, branch, event, runId: run.id, runNumber: run.runNumber };
      this.plans.set(run.id, { repo, actor, workflow, error, context });
      this.announce(run, 'requested');
      this.waiting.push(run.id);
    }
    this.pump();
  }

  private async openPulls(repo: HostRepo, branch: string): Promise<HostWorkflowRun['pulls']> {
    const full = `${repo.owner}/${repo.name}`;
    const bare = this.ctx.host.repoPath(repo);
    const open = this.ctx.host.state.issues.filter(
      (i) => i.repo === full && i.state === 'open' && i.pull?.head === branch,
    );
    return Promise.all(
      open.map(async (issue) => ({
        number: issue.number,
        id: this.ctx.shapes.issue(repo, issue).id,
        headRef: branch,
        headSha: (await resolveRef(bare, `refs/heads/${branch}`)) ?? '',
        baseRef: issue.pull!.base,
        baseSha: (await resolveRef(bare, `refs/heads/${issue.pull!.base}`)) ?? '',
      })),
    );
  }

  /** Runs queued runs one after another; never more than one job at a time. */
  private pump(): void {
    if (this.running || this.closed) return;
    const id = this.waiting.shift();
    if (id === undefined) return;
    this.running = this.execute(id)
      .catch((error: unknown) => {
        this.logger.error({ err: error, run: id }, 'local CI run failed');
        if (this.records.run(id)?.status !== 'completed') this.finish(id, 'failure', true);
      })
      .finally(() => {
        this.running = null;
        this.pump();
      });
  }

  private async execute(id: number): Promise<void> {
    const plan = this.plans.get(id)!;
    this.announce(this.records.startRun(id), 'in_progress');
    const jobs = this.records.jobs(id);
    if (!plan.workflow) {
      const job = jobs[0]!;
      this.records.startJob(job.id, []);
      this.records.writeLog(
        job.id,
        `##[error]Invalid workflow file ${this.records.run(id)!.path}: ${plan.error}\n`,
      );
      this.records.finishJob(job.id, 'failure');
      this.finish(id, 'failure', true);
      return;
    }
    const results = new Map<string, RunConclusion>();
    const ordered = jobOrder(plan.workflow.jobs);
    for (const [index, job] of ordered.entries()) {
      const record = jobs[index]!;
      if (this.closed || job.needs.some((n) => results.get(n) !== 'success')) {
        // A job whose needs did not succeed is skipped, as GitHub does without an `if:`.
        results.set(job.id, 'skipped');
        this.records.finishJob(record.id, this.closed ? 'cancelled' : 'skipped');
        continue;
      }
      const workspace = await checkoutCommit(this.ctx.host.repoPath(plan.repo), plan.context.sha);
      try {
        const conclusion = await runJob({
          jobId: record.id,
          workflow: plan.workflow,
          job,
          context: plan.context,
          workspace,
          runner: this.options.runner,
          records: this.records,
          limits: this.limits,
          signal: this.stopping.signal,
        });
        results.set(job.id, conclusion);
        this.records.finishJob(record.id, conclusion);
      } finally {
        await workspace.remove();
      }
    }
    const all = [...results.values()];
    const conclusion: RunConclusion = all.includes('failure')
      ? 'failure'
      : all.includes('timed_out')
        ? 'timed_out'
        : all.every((c) => c === 'skipped')
          ? 'skipped'
          : 'success';
    this.finish(id, this.closed ? 'cancelled' : conclusion, true);
  }

  private finish(id: number, conclusion: RunConclusion, announce: boolean): void {
    for (const job of this.records.jobs(id))
      if (job.status !== 'completed') this.records.finishJob(job.id, 'cancelled');
    const run = this.records.finishRun(id, conclusion);
    if (announce) this.announce(run, 'completed');
    this.plans.delete(id);
  }

  private announce(run: HostWorkflowRun, action: 'requested' | 'in_progress' | 'completed'): void {
    const plan = this.plans.get(run.id);
    if (!plan) return;
    const stored = this.records.workflow(run.workflowId);
    this.ctx.webhooks.send('workflow_run', {
      action,
      workflow_run: runWebhookJson(this.ctx, plan.repo, run),
      workflow: workflowJson(this.ctx, run, stored?.createdAt ?? run.createdAt),
      ...eventBase(this.ctx, plan.repo, plan.actor),
    });
  }
}
