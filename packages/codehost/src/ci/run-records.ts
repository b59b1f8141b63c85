import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/store.js';
import type {
  HostJobStep,
  HostWorkflow,
  HostWorkflowJob,
  HostWorkflowRun,
  RunConclusion,
} from '../store/types.js';

const now = () => new Date().toISOString();

/**
 * Finished runs kept (oldest dropped first, with their jobs and logs): the store is one JSON file
 * rewritten on every change, so it must not grow with every push for ever.
 */
export const MAX_KEPT_RUNS = 500;

/**
 * The local CI's runs, jobs and logs in the code host's store. Records live in the one JSON file
 * with everything else; logs (up to the cap each) are files beside it, so the JSON stays small.
 */
export class RunRecords {
  private readonly logDir: string;

  constructor(
    private readonly store: Store,
    dataDir: string,
  ) {
    this.logDir = join(dataDir, 'actions-logs');
  }

  runs(repo: string): HostWorkflowRun[] {
    return (this.store.state.workflowRuns ?? []).filter((r) => r.repo === repo);
  }

  run(id: number): HostWorkflowRun | undefined {
    return (this.store.state.workflowRuns ?? []).find((r) => r.id === id);
  }

  jobs(runId: number): HostWorkflowJob[] {
    return (this.store.state.workflowJobs ?? []).filter((j) => j.runId === runId);
  }

  job(id: number): HostWorkflowJob | undefined {
    return (this.store.state.workflowJobs ?? []).find((j) => j.id === id);
  }

  workflow(id: number): HostWorkflow | undefined {
    return (this.store.state.workflows ?? []).find((w) => w.id === id);
  }

  /** The workflow's stable id for this repository and path (made the first time it runs). */
  workflowFor(repo: string, path: string, name: string): HostWorkflow {
    return this.store.update((s) => {
      s.workflows ??= [];
      let found = s.workflows.find((w) => w.repo === repo && w.path === path);
      if (!found) {
        found = { id: s.nextId++, repo, path, name, createdAt: now() };
        s.workflows.push(found);
      }
      found.name = name;
      return found;
    });
  }

  createRun(
    fields: Omit<
      HostWorkflowRun,
      'id' | 'runNumber' | 'status' | 'conclusion' | 'createdAt' | 'updatedAt' | 'runStartedAt'
    >,
    jobNames: string[],
  ): { run: HostWorkflowRun; jobs: HostWorkflowJob[] } {
    return this.store.update((s) => {
      s.workflowRuns ??= [];
      s.workflowJobs ??= [];
      const runNumber =
        Math.max(
          0,
          ...s.workflowRuns.filter((r) => r.workflowId === fields.workflowId).map((r) => r.runNumber),
        ) + 1;
      const at = now();
      const run: HostWorkflowRun = {
        ...fields,
        id: s.nextId++,
        runNumber,
        status: 'queued',
        conclusion: null,
        createdAt: at,
        updatedAt: at,
        runStartedAt: null,
      };
      s.workflowRuns.push(run);
      const jobs = jobNames.map((name): HostWorkflowJob => ({
        id: s.nextId++,
        runId: run.id,
        name,
        status: 'queued',
        conclusion: null,
        createdAt: at,
        startedAt: null,
        completedAt: null,
        steps: [],
      }));
      s.workflowJobs.push(...jobs);
      this.prune(s.workflowRuns, s.workflowJobs);
      return { run, jobs };
    });
  }

  private prune(runs: HostWorkflowRun[], jobs: HostWorkflowJob[]): void {
    let excess = runs.length - MAX_KEPT_RUNS;
    if (excess <= 0) return;
    const dropped = new Set<number>();
    for (const run of runs) {
      if (excess <= 0) break;
      if (run.status !== 'completed') continue;
      dropped.add(run.id);
      excess--;
    }
    runs.splice(0, runs.length, ...runs.filter((r) => !dropped.has(r.id)));
    const kept = jobs.filter((j) => !dropped.has(j.runId));
    for (const job of jobs)
      if (dropped.has(job.runId)) rmSync(join(this.logDir, `${job.id}.log`), { force: true });
    jobs.splice(0, jobs.length, ...kept);
  }

  startRun(id: number): HostWorkflowRun {
    return this.store.update((s) => {
      const run = s.workflowRuns!.find((r) => r.id === id)!;
      run.status = 'in_progress';
      run.runStartedAt = run.updatedAt = now();
      return run;
    });
  }

  finishRun(id: number, conclusion: RunConclusion): HostWorkflowRun {
    return this.store.update((s) => {
      const run = s.workflowRuns!.find((r) => r.id === id)!;
      run.status = 'completed';
      run.conclusion = conclusion;
      run.updatedAt = now();
      run.runStartedAt ??= run.updatedAt;
      return run;
    });
  }

  startJob(id: number, steps: string[]): void {
    this.store.update((s) => {
      const job = s.workflowJobs!.find((j) => j.id === id)!;
      job.status = 'in_progress';
      job.startedAt = now();
      job.steps = steps.map((name, i): HostJobStep => ({
        name,
        number: i + 1,
        status: 'queued',
        conclusion: null,
        startedAt: null,
        completedAt: null,
      }));
    });
  }

  /** A step's new state: started (conclusion undefined) or finished with its conclusion. */
  updateStep(jobId: number, number: number, conclusion?: RunConclusion): void {
    this.store.update((s) => {
      const step = s.workflowJobs!.find((j) => j.id === jobId)!.steps.find((st) => st.number === number)!;
      if (conclusion === undefined) {
        step.status = 'in_progress';
        step.startedAt = now();
      } else {
        step.status = 'completed';
        step.conclusion = conclusion;
        step.startedAt ??= now();
        step.completedAt = now();
      }
    });
  }

  finishJob(id: number, conclusion: RunConclusion): void {
    this.store.update((s) => {
      const job = s.workflowJobs!.find((j) => j.id === id)!;
      job.status = 'completed';
      job.conclusion = conclusion;
      job.startedAt ??= now();
      job.completedAt = now();
      for (const step of job.steps)
        if (step.status !== 'completed') {
          step.status = 'completed';
          // After a failure GitHub skips the rest; a cancelled or timed-out job cancels them.
          step.conclusion = conclusion === 'success' || conclusion === 'failure' ? 'skipped' : 'cancelled';
          if (step.startedAt) step.completedAt = job.completedAt;
        }
    });
  }

  /**
   * Runs that were queued or running when the code host stopped cannot go on (their queue lived
   * in memory): they end as cancelled at start-up, so nothing waits for them forever.
   */
  cancelUnfinished(): HostWorkflowRun[] {
    const open = (this.store.state.workflowRuns ?? []).filter((r) => r.status !== 'completed');
    for (const run of open) {
      for (const job of this.jobs(run.id))
        if (job.status !== 'completed') this.finishJob(job.id, 'cancelled');
      this.finishRun(run.id, 'cancelled');
    }
    return open;
  }

  writeLog(jobId: number, text: string): void {
    mkdirSync(this.logDir, { recursive: true });
    writeFileSync(join(this.logDir, `${jobId}.log`), text);
  }

  readLog(jobId: number): string | null {
    const path = join(this.logDir, `${jobId}.log`);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }
}
