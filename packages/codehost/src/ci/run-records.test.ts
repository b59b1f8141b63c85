import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../store/store.js';
import { MAX_KEPT_RUNS, RunRecords } from './run-records.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('run records', () => {
  it(`keep the newest ${MAX_KEPT_RUNS} runs, dropping finished ones with their logs`, () => {
    const root = mkdtempSync(join(tmpdir(), 'codehost-records-'));
    dirs.push(root);
    const records = new RunRecords(new Store(root), root);
    const fields = {
      repo: 'a/b',
      workflowId: 1,
      name: 'W',
      path: 'w.yml',
      headBranch: 'main',
      headSha: 'f'.repeat(40),
      event: 'push' as const,
      actor: 'ada',
      pulls: [],
      headCommit: { message: 'm', treeId: 't', timestamp: '', authorName: 'a', authorEmail: 'a@x' },
    };
    const first = records.createRun(fields, ['j']);
    records.writeLog(first.jobs[0]!.id, 'old log');
    records.finishRun(first.run.id, 'success');
    const unfinished = records.createRun(fields, ['j']);
    for (let i = 0; i < MAX_KEPT_RUNS; i++)
      records.finishRun(records.createRun(fields, ['j']).run.id, 'success');
    const runs = records.runs('a/b');
    expect(runs).toHaveLength(MAX_KEPT_RUNS);
    expect(records.run(first.run.id)).toBeUndefined();
    expect(records.job(first.jobs[0]!.id)).toBeUndefined();
    expect(records.readLog(first.jobs[0]!.id)).toBeNull();
    // A run still going is never dropped.
    expect(records.run(unfinished.run.id)).toBeDefined();
  });
});
