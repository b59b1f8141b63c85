import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { RunConclusion } from '../store/types.js';
import type { CiCommandRunner } from './command-runner.js';
import type { JobWorkspace } from './checkout.js';
import type { RunRecords } from './run-records.js';
import type { Workflow, WorkflowJob, WorkflowStep } from './workflow-file.js';

export interface JobLimits {
  timeoutMs: number;
  maxLogBytes: number;
}

/** What the job's commands see as GitHub's default variables. */
export interface JobContext {
  repo: string;
  sha: string;
  branch: string;
  event: string;
  runId: number;
  runNumber: number;
}

/** `uses:` steps the workspace already provides: it is a checkout, and node is the machine's. */
const BUILT_IN = /^actions\/(checkout|setup-node)@/;

/** Where a step runs: inside the checkout, or null when the directory would leave it. */
function stepDirectory(checkout: string, workflow: Workflow, job: WorkflowJob, step: WorkflowStep) {
  const dir = step.workingDirectory ?? job.workingDirectory ?? workflow.workingDirectory ?? '.';
  const full = resolve(checkout, dir);
  const rel = relative(checkout, full);
  if (rel.startsWith('..') || isAbsolute(rel)) return null;
  return full;
}

/** A log that stops growing at the cap (the rest of the output is dropped, and it says so). */
class CappedLog {
  private text = '';
  private bytes = 0;
  private full = false;

  constructor(private readonly max: number) {}

  get room(): number {
    return Math.max(0, this.max - this.bytes);
  }

  add(text: string): void {
    if (this.full) return;
    const size = Buffer.byteLength(text);
    if (size <= this.room) {
      this.text += text;
      this.bytes += size;
      return;
    }
    this.text += Buffer.from(text).subarray(0, this.room).toString('utf8');
    this.bytes = this.max;
    this.cut();
  }

  cut(): void {
    if (this.full) return;
    this.full = true;
    this.text += `\n##[warning]The log was cut at ${this.max} bytes (the local CI's limit per job).\n`;
  }

  toString(): string {
    return this.text;
  }
}

/**
 * Runs one job's steps in order in its workspace, each through the injected runner (sandboxed in
 * the product), within the job's time limit and log cap; records step states as they change and
 * writes the log after every step so the run page can show progress.
 */
export async function runJob(options: {
  jobId: number;
  workflow: Workflow;
  job: WorkflowJob;
  context: JobContext;
  workspace: JobWorkspace;
  runner: CiCommandRunner;
  records: RunRecords;
  limits: JobLimits;
  /** Aborted when the code host stops: the step is killed and the job cancelled. */
  signal?: AbortSignal;
}): Promise<RunConclusion> {
  const { jobId, workflow, job, context, workspace, runner, records, limits, signal } = options;
  const deadline = Date.now() + limits.timeoutMs;
  const log = new CappedLog(limits.maxLogBytes);
  records.startJob(
    jobId,
    job.steps.map((s) => s.name),
  );
  log.add(`Local CI job "${job.name}" for ${context.repo}@${context.sha} (${context.event})\n`);
  let conclusion: RunConclusion = 'success';
  for (const [index, step] of job.steps.entries()) {
    const number = index + 1;
    if (conclusion !== 'success') {
      records.updateStep(jobId, number, 'skipped');
      continue;
    }
    records.updateStep(jobId, number);
    log.add(`##[group]${step.name}\n`);
    let result: RunConclusion;
    if (step.uses && !step.run) {
      if (BUILT_IN.test(step.uses)) {
        log.add(
          `${step.uses}: nothing to do here (the workspace is a checkout of ${context.sha}; node is the machine's)\n`,
        );
        result = 'success';
      } else {
        log.add(`Skipped: the local CI runs only run: steps and does not run actions (uses: ${step.uses})\n`);
        result = 'skipped';
      }
    } else {
      result = await runStep(step, number);
    }
    log.add('##[endgroup]\n');
    records.updateStep(jobId, number, result);
    records.writeLog(jobId, log.toString());
    if (result === 'failure' || result === 'timed_out' || result === 'cancelled') conclusion = result;
  }
  records.writeLog(jobId, log.toString());
  return conclusion;

  async function runStep(step: WorkflowStep, number: number): Promise<RunConclusion> {
    const cwd = stepDirectory(workspace.checkout, workflow, job, step);
    if (!cwd || !statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      log.add(
        `##[error]The working directory ${step.workingDirectory ?? job.workingDirectory ?? workflow.workingDirectory} is not a directory in the checkout.\n`,
      );
      return 'failure';
    }
    log.add(`${step.run}\n`);
    const timeoutMs = deadline - Date.now();
    if (timeoutMs <= 0) return timedOut();
    const result = await runner({
      // GitHub's default shell for run steps: bash with -e and pipefail.
      command: `set -eo pipefail\n${step.run}`,
      cwd,
      workspace: workspace.root,
      env: {
        ...workflow.env,
        ...job.env,
        ...step.env,
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: context.repo,
        GITHUB_SHA: context.sha,
        GITHUB_REF: `refs/heads/${context.branch}`,
        GITHUB_REF_NAME: context.branch,
        GITHUB_EVENT_NAME: context.event,
        GITHUB_WORKSPACE: workspace.checkout,
        GITHUB_RUN_ID: String(context.runId),
        GITHUB_RUN_NUMBER: String(context.runNumber),
        GITHUB_JOB: job.id,
        GITHUB_STEP_NUMBER: String(number),
        RUNNER_OS: 'Linux',
      },
      timeoutMs,
      maxOutputBytes: Math.max(1, log.room),
      network: false,
      ...(signal ? { signal } : {}),
    });
    log.add(result.output.endsWith('\n') || !result.output ? result.output : `${result.output}\n`);
    if (result.truncated) log.cut();
    if (signal?.aborted) {
      log.add('##[error]The job was cancelled: the code host stopped.\n');
      return 'cancelled';
    }
    if (result.timedOut) return timedOut();
    if (result.exitCode !== 0) {
      log.add(`##[error]Process completed with exit code ${result.exitCode ?? 'unknown (killed)'}.\n`);
      return 'failure';
    }
    return 'success';
  }

  function timedOut(): RunConclusion {
    log.add(
      `##[error]The job has exceeded the maximum execution time of ${Math.round(limits.timeoutMs / 1000)} seconds.\n`,
    );
    return 'timed_out';
  }
}
