import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findHelperThreads, v8PoolSize } from './helper-thread-priority.js';

const moduleFile = fileURLToPath(new URL('./helper-thread-priority.ts', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A fake /proc/<pid>/task: thread id → name. */
function taskDir(threads: Record<number, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-task-'));
  dirs.push(dir);
  for (const [tid, name] of Object.entries(threads)) {
    mkdirSync(join(dir, tid));
    writeFileSync(join(dir, tid, 'comm'), `${name}\n`);
  }
  return dir;
}

describe('v8PoolSize', () => {
  it("is Node's default without the flag", () => {
    expect(v8PoolSize([], '')).toBe(4);
    expect(v8PoolSize(['--import', 'tsx'], '--max-old-space-size=512')).toBe(4);
  });

  it('reads the flag from the command line and NODE_OPTIONS, the command line last', () => {
    expect(v8PoolSize(['--v8-pool-size=2'])).toBe(2);
    expect(v8PoolSize([], '--v8-pool-size 3')).toBe(3);
    expect(v8PoolSize(['--v8-pool-size=6'], '--v8-pool-size=3')).toBe(6);
  });

  it('is unknown when Node sizes the pool itself or the value is not a count', () => {
    expect(v8PoolSize(['--v8-pool-size=0'])).toBeUndefined();
    expect(v8PoolSize(['--v8-pool-size=many'])).toBeUndefined();
  });
});

describe('findHelperThreads', () => {
  it('takes the pool-size threads made right after the delayed-task scheduler', () => {
    const dir = taskDir({
      100: 'node',
      101: 'DelayedTaskSche',
      102: 'node',
      103: 'node',
      104: 'node',
      105: 'node',
      // Later threads of the process: libuv's pool, a worker thread.
      106: 'node',
      107: 'libuv-worker',
    });
    expect(findHelperThreads(4, dir)).toEqual({ threads: [102, 103, 104, 105] });
    expect(findHelperThreads(2, dir)).toEqual({ threads: [102, 103] });
  });

  it("takes the threads Node 24 names for the pool, whatever the pool's size", () => {
    const dir = taskDir({
      10: 'MainThread',
      11: 'DelayedTaskSche',
      12: 'V8Worker',
      13: 'V8Worker',
      14: 'SignalInspector',
      15: 'libuv-worker',
    });
    expect(findHelperThreads(undefined, dir)).toEqual({ threads: [12, 13] });
    expect(findHelperThreads(4, dir)).toEqual({ threads: [12, 13] });
  });

  it('orders thread ids as numbers, not as names', () => {
    const dir = taskDir({ 998: 'node', 999: 'DelayedTaskSche', 1000: 'node', 1001: 'node' });
    expect(findHelperThreads(2, dir)).toEqual({ threads: [1000, 1001] });
  });

  it('finds nothing rather than guess', () => {
    expect(findHelperThreads(undefined, taskDir({ 1: 'node' })).threads).toEqual([]);
    expect(findHelperThreads(4, taskDir({ 1: 'node', 2: 'node', 3: 'node' }))).toEqual({
      threads: [],
      reason: 'no V8 delayed-task scheduler thread',
    });
    expect(findHelperThreads(4, taskDir({ 1: 'node', 2: 'DelayedTaskSche', 3: 'node' }))).toEqual({
      threads: [],
      reason: 'fewer V8 pool threads than expected',
    });
    expect(
      findHelperThreads(2, taskDir({ 1: 'node', 2: 'DelayedTaskSche', 3: 'node', 4: 'libuv-worker' })),
    ).toEqual({ threads: [], reason: 'the threads after the scheduler are not the V8 pool' });
    expect(findHelperThreads(4, join(tmpdir(), 'tandem-no-such-task-dir')).threads).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('lowerHelperThreadPriority in a real Node process', () => {
  it("lowers the threads V8 compiles and collects garbage on, and not the event loop's", () => {
    // The child lowers its pool, then gives V8 work for it: functions hot enough to be optimised
    // (compiled on the pool) and garbage enough for concurrent marking. It reports each thread's
    // nice value and CPU time (fields 14, 15 and 19 of /proc/<pid>/task/<tid>/stat).
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { lowerHelperThreadPriority } = await import(${JSON.stringify(moduleFile)});
         const { readdirSync, readFileSync } = await import('node:fs');
         const lowered = lowerHelperThreadPriority(10);
         let keep = [];
         for (let round = 0; round < 40; round++) {
           const fns = Array.from({ length: 30 }, (_, i) => new Function('x', 'return x * ' + (i + round) + ' + Math.sqrt(x) + ' + i));
           for (let n = 0; n < 20000; n++) for (const fn of fns) fn(n);
           keep = Array.from({ length: 50000 }, (_, i) => ({ i, s: String(i) + round }));
         }
         const threads = readdirSync('/proc/self/task').map((tid) => {
           const fields = readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ');
           return { tid: Number(tid), nice: Number(fields[16]), cpu: Number(fields[11]) + Number(fields[12]) };
         });
         console.log(JSON.stringify({ lowered, threads, main: process.pid, kept: keep.length }));`,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const report = JSON.parse(child.stdout) as {
      lowered: { threads: number[]; reason?: string };
      threads: { tid: number; nice: number; cpu: number }[];
      main: number;
    };
    expect(report.lowered.reason).toBeUndefined();
    expect(report.lowered.threads).toHaveLength(4);
    expect(report.lowered.threads).not.toContain(report.main);
    const byTid = new Map(report.threads.map((t) => [t.tid, t]));
    // Relative to the process's own priority (CI may run under `nice`).
    const own = byTid.get(report.main)!.nice;
    for (const tid of report.lowered.threads) expect(byTid.get(tid)?.nice).toBe(Math.min(19, own + 10));
    // Every other thread, the event loop first, keeps its priority.
    for (const thread of report.threads)
      if (!report.lowered.threads.includes(thread.tid)) expect(thread.nice).toBe(own);
    // And the lowered ones are where V8's background work ran.
    const pooled = report.lowered.threads.reduce((sum, tid) => sum + (byTid.get(tid)?.cpu ?? 0), 0);
    expect(pooled).toBeGreaterThan(0);
  });
});
