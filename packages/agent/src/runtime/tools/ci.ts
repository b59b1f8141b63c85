import { jobLogTail, listRuns, MAX_LOG_TAIL_BYTES, type RunSummary } from '@tandem/github';
import { z } from 'zod';
import { defineTool, type ToolContext } from './types.js';

const at = (ctx: ToolContext) => ({ owner: ctx.repo.owner, repo: ctx.repo.name });

function describeRun(run: RunSummary): string {
  const outcome = run.status === 'completed' ? (run.conclusion ?? 'completed') : run.status;
  const jobs = run.jobs.map((job) => {
    const jobOutcome = job.status === 'completed' ? (job.conclusion ?? 'completed') : job.status;
    const step = job.failedStep ? ` (failed step: ${job.failedStep})` : '';
    return `  - job ${job.id} "${job.name}": ${jobOutcome}${step}`;
  });
  return [
    `${run.name} (run ${run.id}) on ${run.headSha.slice(0, 7)}: ${outcome}  ${run.htmlUrl}`,
    ...jobs,
  ].join('\n');
}

export const ciStatus = defineTool({
  name: 'ci_status',
  description:
    "The CI (GitHub Actions) runs of a commit, with their jobs and outcomes. Default: the newest runs of the agent's branch. Read a failed job's log with ci_log.",
  input: z.object({
    sha: z
      .string()
      .regex(/^[0-9a-f]{7,40}$/)
      .optional()
      .describe('A full commit sha; omit for the newest runs of your branch'),
  }),
  async execute(input, ctx) {
    const runs = await listRuns(
      ctx.github,
      at(ctx),
      input.sha?.length === 40 ? { headSha: input.sha } : { branch: ctx.workspace.branch },
      10,
    );
    const shown = input.sha ? runs.filter((r) => r.headSha.startsWith(input.sha!)) : runs;
    if (!shown.length) return { output: 'No CI runs found.' };
    return { output: ctx.scrub(shown.map(describeRun).join('\n')) };
  },
});

export const ciLog = defineTool({
  name: 'ci_log',
  description: `The end of a CI job's log (at most ${MAX_LOG_TAIL_BYTES} bytes), where the failure usually is. Take the job id from ci_status.`,
  input: z.object({
    job_id: z.number().int().positive(),
    max_bytes: z.number().int().min(500).max(MAX_LOG_TAIL_BYTES).default(8000),
  }),
  async execute(input, ctx) {
    const log = await jobLogTail(ctx.github, at(ctx), input.job_id, input.max_bytes);
    // Written by the repository's own commands: shown to the model like command output, scrubbed.
    const note = log.truncated ? `[the log's last ${input.max_bytes} bytes]\n` : '';
    return { output: ctx.scrub(`${note}${log.text}`) };
  },
});
