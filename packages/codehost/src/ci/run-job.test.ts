import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store.js';
import { processRunner } from './command-runner.js';
import { runJob } from './run-job.js';
import { RunRecords } from './run-records.js';
import { parseWorkflow } from './workflow-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function run(steps: string, limits: { timeoutMs: number; maxLogBytes: number }, signal?: AbortSignal) {
  const root = mkdtempSync(join(tmpdir(), 'codehost-job-'));
  dirs.push(root);
  const checkout = join(root, 'work');
  mkdirSync(join(checkout, 'sub'), { recursive: true });
  const records = new RunRecords(new Store(join(root, 'data')), join(root, 'data'));
  const workflow = parseWorkflow('w.yml', `on: push\njobs:\n  j:\n    steps:\n${steps}`);
  const { jobs } = records.createRun(
    {
      repo: 'a/b',
      workflowId: 1,
      name: 'W',
      path: 'w.yml',
      headBranch: 'main',
      headSha: 'f'.repeat(40),
      event: 'push',
      actor: 'ada',
      pulls: [],
      headCommit: { message: 'm', treeId: 't', timestamp: '', authorName: 'a', authorEmail: 'a@x' },
    },
    ['j'],
  );
  const conclusion = await runJob({
    jobId: jobs[0]!.id,
    workflow,
    job: workflow.jobs[0]!,
    context: { repo: 'a/b', sha: 'f'.repeat(40), branch: 'main', event: 'push', runId: 1, runNumber: 1 },
    workspace: { root, checkout, remove: async () => {} },
    runner: processRunner,
    records,
    limits,
    ...(signal ? { signal } : {}),
  });
  return { conclusion, log: records.readLog(jobs[0]!.id) ?? '', steps: records.job(jobs[0]!.id)!.steps };
}

describe('a job', () => {
  it('stops at its time limit and says so', async () => {
    const { conclusion, log, steps } = await run('      - run: sleep 20\n      - run: echo never\n', {
      timeoutMs: 500,
      maxLogBytes: 10_000,
    });
    expect(conclusion).toBe('timed_out');
    expect(log).toContain('exceeded the maximum execution time');
    expect(log).not.toContain('\nnever');
    expect(steps.map((s) => s.conclusion)).toEqual(['timed_out', 'skipped']);
  }, 15_000);

  it('is cancelled at once when the code host stops', async () => {
    const started = Date.now();
    const { conclusion, log } = await run(
      '      - run: sleep 20\n',
      { timeoutMs: 60_000, maxLogBytes: 10_000 },
      AbortSignal.timeout(300),
    );
    expect(conclusion).toBe('cancelled');
    expect(log).toContain('The job was cancelled');
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 15_000);

  it('keeps at most the log cap', async () => {
    const { conclusion, log } = await run("      - run: head -c 200000 /dev/zero | tr '\\\\0' x\n", {
      timeoutMs: 10_000,
      maxLogBytes: 2_000,
    });
    expect(conclusion).toBe('success');
    expect(Buffer.byteLength(log)).toBeLessThan(2_200);
    expect(log).toContain('The log was cut at 2000 bytes');
  });

  it('refuses a working directory outside the checkout and skips what follows a failure', async () => {
    const { conclusion, log, steps } = await run(
      '      - run: pwd\n        working-directory: ../..\n      - run: echo after\n',
      { timeoutMs: 10_000, maxLogBytes: 10_000 },
    );
    expect(conclusion).toBe('failure');
    expect(log).toContain('is not a directory in the checkout');
    expect(steps.map((s) => s.conclusion)).toEqual(['failure', 'skipped']);
  });
});
